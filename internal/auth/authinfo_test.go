package auth

import (
	"strings"
	"testing"
	"time"
)

func TestParseAuthInfo(t *testing.T) {
	def := DefaultAuthInfo()
	cases := []struct {
		in      string
		want    AuthInfo
		wantErr string
	}{
		{in: "", want: def},
		{in: "ttl=300", want: AuthInfo{CredExpire: DefaultCredExpire, Socket: DefaultMungeSocket, TTL: 300 * time.Second}},
		{in: "socket=/tmp/m.sock,cred_expire=1200", want: AuthInfo{CredExpire: 1200 * time.Second, Socket: "/tmp/m.sock", TTL: DefaultTTL}},
		{in: " TTL=5 , socket=/s ,", want: AuthInfo{CredExpire: DefaultCredExpire, Socket: "/s", TTL: 5 * time.Second}},
		{in: "ttl=0", wantErr: `invalid ttl value "0"`},
		{in: "ttl=abc", wantErr: `invalid ttl value "abc"`},
		{in: "cred_expire", wantErr: "cred_expire needs a value"},
		{in: "socket=", wantErr: "socket needs a path"},
		{in: "use_client_ids", wantErr: `option "use_client_ids" is not supported`},
	}
	for _, tc := range cases {
		got, err := ParseAuthInfo(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseAuthInfo(%q) error = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseAuthInfo(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}
