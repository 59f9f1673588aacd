package wire

import (
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testEcho is a test-only message that exercises every encoding option the handle sets:
// a map (Canonical), []byte vs string (WriteExt: bin vs str8), negative and large integers.
type testEcho struct {
	Text  string           `codec:"text"`
	Long  string           `codec:"long"`
	Data  []byte           `codec:"data"`
	Attrs map[string]int64 `codec:"attrs"`
	N     int64            `codec:"n"`
	U     uint64           `codec:"u"`
	Flag  bool             `codec:"flag"`
	List  []string         `codec:"list"`
	Wait  bool             `codec:"wait"`
	Panic bool             `codec:"panic"`
	Fail  int32            `codec:"fail"`
}

// testPeer asks the server to report the caller's SO_PEERCRED and identity.
type testPeer struct {
	HasPeer bool   `codec:"has_peer"`
	UID     uint32 `codec:"uid"`
	GID     uint32 `codec:"gid"`
	PID     int32  `codec:"pid"`
	AuthUID uint32 `codec:"auth_uid"`
}

const (
	msgTestEcho MsgType = 65000
	msgTestPeer MsgType = 65001
	msgTestNone MsgType = 65002 // registered, never handled
)

type testNone struct{}

func init() {
	Register(msgTestEcho, "TEST_ECHO", func() any { return new(testEcho) })
	Register(msgTestPeer, "TEST_PEER", func() any { return new(testPeer) })
	Register(msgTestNone, "TEST_NONE", func() any { return new(testNone) })
}

func sampleEcho() *testEcho {
	return &testEcho{
		Text:  "hello",
		Long:  strings.Repeat("x", 40), // > 31 bytes: str8 (0xd9) only under WriteExt
		Data:  []byte{0, 1, 2, 0xff},   // bin8 (0xc4) only under WriteExt
		Attrs: map[string]int64{"zeta": 1, "alpha": -2, "mid": 300},
		N:     -1 << 40,
		U:     1 << 63,
		Flag:  true,
		List:  []string{"a", "b"},
	}
}

// goldenCases are the values whose bytes testdata pins. A change to the handle's options or
// to these structs' tags breaks them, on purpose: the wire format changed.
func goldenCases(t *testing.T) map[string]any {
	t.Helper()
	body, err := Marshal(&Ping{Seq: 7, SentNanos: 1700000000123456789})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"ok":         &OK{},
		"error":      &Error{Errno: ErrnoAccessDenied, Text: "Access/permission denied"},
		"ping":       &Ping{Seq: 7, SentNanos: 1700000000123456789},
		"ping_reply": &PingReply{Seq: 7, SentNanos: -5},
		"echo":       sampleEcho(),
		"envelope": &Envelope{Version: ProtocolVersion, Type: MsgPing, ReqID: 42,
			Cred: []byte("cred"), Body: body},
	}
}

func TestGolden_Encoding(t *testing.T) {
	for name, v := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			got, err := Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".hex", got)
			// The bytes decode back to the same value.
			fresh := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			if err := Unmarshal(got, fresh); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fresh, v) {
				t.Fatalf("round trip: got %+v, want %+v", fresh, v)
			}
		})
	}
}

func TestGolden_Frame(t *testing.T) {
	env := goldenCases(t)["envelope"].(*Envelope)
	frame, err := EncodeFrame(env)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "frame.hex", frame)
}

// TestGolden_KnownBytes checks a few golden bytes by hand, so the golden files are not merely
// whatever the code produced once.
func TestGolden_KnownBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"empty struct is an empty map", &OK{}, "80"},
		{"struct fields as a map sorted by name", &Ping{Seq: 1, SentNanos: 2}, "82a773656e745f6e73" + "02" + "a3736571" + "01"},
		{"bytes are bin8", &struct {
			B []byte `codec:"b"`
		}{[]byte{9}}, "81a162c40109"},
		{"long strings are str8", &struct {
			S string `codec:"s"`
		}{strings.Repeat("y", 32)}, "81a173d920" + strings.Repeat("79", 32)},
		{"map keys sorted", &struct {
			M map[string]int `codec:"m"`
		}{map[string]int{"b": 2, "a": 1, "c": 3}}, "81a16d83a16101a16202a16303"},
		{"json tags are ignored", &struct {
			X int `json:"renamed"`
		}{5}, "81a15805"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(got) != tc.want {
				t.Fatalf("got %x, want %s", got, tc.want)
			}
		})
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(hex.EncodeToString(got)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to record)", err)
	}
	if g, w := hex.EncodeToString(got), strings.TrimSpace(string(want)); g != w {
		t.Fatalf("encoding of %s changed:\n got %s\nwant %s", name, g, w)
	}
}

func TestUnmarshal_Errors(t *testing.T) {
	good, err := Marshal(&Ping{Seq: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		into any
		want error
	}{
		{"trailing bytes", append(append([]byte{}, good...), 0xc0), new(Ping), ErrTrailingBytes},
		{"not fresh", good, &Ping{Seq: 9}, ErrNotFresh},
		{"not fresh map", good, &testEcho{Attrs: map[string]int64{"old": 1}}, ErrNotFresh},
		{"nil pointer", good, (*Ping)(nil), nil},
		{"not a pointer", good, Ping{}, nil},
		{"truncated", good[:len(good)-1], new(Ping), nil},
		{"empty", nil, new(Ping), nil},
		{"wrong kind", []byte{0xa3, 'a', 'b', 'c'}, new(Ping), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Unmarshal(tc.in, tc.into)
			if err == nil {
				t.Fatal("want an error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestUnmarshal_UnknownFieldsSkipped(t *testing.T) {
	// A newer peer may append fields; an older one must still decode the rest.
	b, err := Marshal(&struct {
		Seq   uint64 `codec:"seq"`
		Extra string `codec:"extra"`
	}{Seq: 5, Extra: "new"})
	if err != nil {
		t.Fatal(err)
	}
	var p Ping
	if err := Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if p.Seq != 5 {
		t.Fatalf("got %+v", p)
	}
}

func TestUnmarshal_HugeCollectionClaimIsBounded(t *testing.T) {
	// An array header claiming 2^32-1 elements and nothing after it.
	in := []byte{0x81, 0xa4, 'l', 'i', 's', 't', 0xdd, 0xff, 0xff, 0xff, 0xff}
	if err := Unmarshal(in, new(testEcho)); err == nil {
		t.Fatal("want an error")
	}
}

// TestRegistry_MessagesHaveNoTimeAndOnlyCodecTags walks every registered message: times must
// travel as integers, and every exported field must name itself with a codec tag.
func TestRegistry_MessagesHaveNoTimeAndOnlyCodecTags(t *testing.T) {
	timeType := reflect.TypeOf(time.Time{})
	var walk func(path string, rt reflect.Type, seen map[reflect.Type]bool)
	walk = func(path string, rt reflect.Type, seen map[reflect.Type]bool) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array || rt.Kind() == reflect.Map {
			if rt.Kind() == reflect.Map {
				walk(path+"[key]", rt.Key(), seen)
			}
			rt = rt.Elem()
		}
		if rt == timeType {
			t.Errorf("%s is a time.Time: send int64 Unix seconds or nanoseconds", path)
			return
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		for i := range rt.NumField() {
			f := rt.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Tag.Get("codec") == "" {
				t.Errorf("%s.%s has no codec tag", path, f.Name)
			}
			walk(path+"."+f.Name, f.Type, seen)
		}
	}
	for _, mt := range Registered() {
		v, err := New(mt)
		if err != nil {
			t.Fatal(err)
		}
		walk(Name(mt), reflect.TypeOf(v), map[reflect.Type]bool{})
	}
}

func TestRegister_Panics(t *testing.T) {
	// A lookup indexes the registry, so each Register below is checked at once; the
	// registrations of init functions are checked by that first lookup (TestRegistry_Lookups).
	Registered()
	for _, tc := range []struct {
		name string
		t    MsgType
		n    string
		fn   func() any
	}{
		{"duplicate number", MsgPing, "OTHER_PING", func() any { return new(struct{ A int }) }},
		{"duplicate name", 65100, "PING", func() any { return new(struct{ B int }) }},
		{"duplicate Go type", 65101, "PING_AGAIN", func() any { return new(Ping) }},
		{"zero", 0, "ZERO", func() any { return new(struct{ C int }) }},
		{"not a pointer", 65102, "VALUE", func() any { return Ping{} }},
		{"nil constructor", 65103, "NIL", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("Register did not panic")
				}
			}()
			Register(tc.t, tc.n, tc.fn)
		})
	}
}

func TestRegistry_Lookups(t *testing.T) {
	if Name(MsgPing) != "PING" || MsgError.String() != "ERROR" {
		t.Fatalf("names: %s %s", Name(MsgPing), MsgError)
	}
	if Name(60000) != "MsgType(60000)" {
		t.Fatalf("unknown name: %s", Name(60000))
	}
	if _, err := New(60000); !errors.Is(err, ErrUnknownMsgType) {
		t.Fatalf("New(60000): %v", err)
	}
	v, err := New(MsgPingReply)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.(*PingReply); !ok {
		t.Fatalf("New(MsgPingReply) = %T", v)
	}
	if mt, ok := TypeOf(&Error{}); !ok || mt != MsgError {
		t.Fatalf("TypeOf(*Error) = %v %v", mt, ok)
	}
}
