package auth

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func credSeeds(f *testing.F) {
	clk := newFakeClock()
	s, _ := signerVerifier(f, clk)
	for _, body := range []string{"", "a", "submit"} {
		c, err := s.Sign(digestOf(body))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(c)
		f.Add(c[:len(c)-1])
		bad := append([]byte(nil), c...)
		bad[74] = 0xff
		f.Add(bad)
	}
	f.Add([]byte{})
	f.Add([]byte{'A', 1})
	f.Add(make([]byte, MinCredentialLen))
	ls := NewLaunchSigner(testKey(f))
	if lc, err := ls.SignLaunch(LaunchCred{JobID: 1, NodeList: "n[1-3]"}); err == nil {
		f.Add(lc)
	}
}

// FuzzDecodeCredential: decoding never panics, and whatever decodes re-encodes to the same
// bytes (the layout has one encoding per credential).
func FuzzDecodeCredential(f *testing.F) {
	credSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCredential(b)
		if err != nil {
			if !errors.Is(err, ErrUnpack) {
				t.Fatalf("decode error %v does not wrap ErrUnpack", err)
			}
			return
		}
		body, err := c.marshal()
		if err != nil {
			t.Fatalf("decoded credential does not re-encode: %v", err)
		}
		if !bytes.Equal(body, b[:len(b)-macLen]) {
			t.Fatalf("re-encoding differs:\n got %x\nwant %x", body, b[:len(b)-macLen])
		}
	})
}

// FuzzVerify: verification never panics and accepts only credentials signed with the key:
// the fuzzer cannot produce one, so anything other than the untouched seed must be refused.
func FuzzVerify(f *testing.F) {
	credSeeds(f)
	clk := newFakeClock()
	signer, _ := signerVerifier(f, clk)
	f.Fuzz(func(t *testing.T, b []byte) {
		v := NewKeyVerifier(signer.key)
		v.Now = clk.Now
		var d [32]byte
		if c, err := DecodeCredential(b); err == nil {
			d = c.PayloadDigest
		}
		id, err := v.Verify(b, d)
		if err != nil {
			return
		}
		// Accepted: it must be exactly what the key would sign for those fields.
		c, _ := DecodeCredential(b)
		body, _ := c.marshal()
		if !bytes.Equal(append(body, signer.key.mac(body)...), b) || id.UID != c.UID {
			t.Fatalf("accepted a credential the key did not sign: %x", b)
		}
		if _, err := v.Verify(b, d); !errors.Is(err, ErrReplayed) {
			t.Fatalf("accepted the same credential twice: %v", err)
		}
	})
}

// FuzzDecodeLaunchCred: never panics; decodable input re-encodes identically; verification
// of arbitrary bytes never panics.
func FuzzDecodeLaunchCred(f *testing.F) {
	credSeeds(f)
	k := testKey(f)
	v := NewLaunchVerifier(k)
	v.Now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	f.Fuzz(func(t *testing.T, b []byte) {
		lc, err := DecodeLaunchCred(b)
		v.VerifyLaunch(b, "n1")
		if err != nil {
			if !errors.Is(err, ErrLaunchInvalid) {
				t.Fatalf("decode error %v does not wrap ErrLaunchInvalid", err)
			}
			return
		}
		body, err := lc.marshal()
		if err != nil || !bytes.Equal(body, b[:len(b)-macLen]) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	})
}

// FuzzParseAuthInfo: never panics; a value that parses yields positive lifetimes.
func FuzzParseAuthInfo(f *testing.F) {
	for _, s := range []string{"", "ttl=300", "socket=/run/munge/munge.socket.2,cred_expire=1200",
		"ttl=", "ttl=-1", "x=y", ",,,", "ttl=99999999999999999999", "cred_expire=5,ttl=5,socket=/a=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ai, err := ParseAuthInfo(s)
		if err != nil {
			return
		}
		if ai.TTL <= 0 || ai.CredExpire <= 0 || ai.Socket == "" {
			t.Fatalf("ParseAuthInfo(%q) = %+v", s, ai)
		}
	})
}
