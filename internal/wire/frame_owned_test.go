package wire

import (
	"bytes"
	"reflect"
	"testing"
)

// ownedSamples are bodies the hand decoders must read exactly as Unmarshal does.
func ownedSamples(t testing.TB) (envs, replies [][]byte) {
	for _, e := range []*Envelope{
		{Version: ProtocolVersion, Type: MsgJobInfo, ReqID: 1, Body: []byte{0x80}},
		{Version: ProtocolVersion, Type: MsgJobInfo, ReqID: 1 << 40, Cred: bytes.Repeat([]byte{7}, 300), Body: bytes.Repeat([]byte{1}, 70000)},
		{Version: 1, Type: MsgOK},
	} {
		b, err := Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, b)
	}
	packed := AppendJobInfoListHeader(nil, 2)
	packed = AppendJobInfo(packed, &JobInfo{JobID: 1, Name: "a", CPUsPerNode: []uint32{2}})
	packed = AppendJobInfo(packed, &JobInfo{JobID: 2, ArrayTaskID: NoVal})
	for _, r := range []*JobInfoReply{
		{LastUpdate: 1_700_000_000, Packed: packed},
		{LastUpdate: -5, Packed: AppendJobInfoListHeader(nil, 0)},
		{LastUpdate: 1, Jobs: []JobInfo{{JobID: 3}}}, // not packed: Unmarshal's
	} {
		b, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, b)
	}
	return envs, replies
}

// checkOwned says the hand decoders either decline b or agree with Unmarshal about it.
func checkOwned(t *testing.T, b []byte) (envFast, repFast bool) {
	if env, ok := envelopeFast(b); ok {
		want, err := DecodeEnvelope(b)
		if err != nil {
			t.Fatalf("envelopeFast accepted what DecodeEnvelope refuses (%v): %x", err, b)
		}
		if !reflect.DeepEqual(normEnv(env), normEnv(want)) {
			t.Fatalf("envelopeFast = %+v, DecodeEnvelope = %+v", env, want)
		}
		envFast = true
	}
	var rep JobInfoReply
	if jobInfoReplyFast(b, &rep) {
		var want JobInfoReply
		if err := Unmarshal(b, &want); err != nil {
			t.Fatalf("jobInfoReplyFast accepted what Unmarshal refuses (%v): %x", err, b)
		}
		if rep.LastUpdate != want.LastUpdate || !bytes.Equal(rep.Packed, want.Packed) || len(want.Jobs)+len(want.Steps) != 0 {
			t.Fatalf("jobInfoReplyFast = %+v, Unmarshal = %+v", rep, want)
		}
		repFast = true
	}
	return envFast, repFast
}

// normEnv makes empty and nil byte slices compare equal (both mean "none").
func normEnv(e *Envelope) Envelope {
	c := *e
	if len(c.Cred) == 0 {
		c.Cred = nil
	}
	if len(c.Body) == 0 {
		c.Body = nil
	}
	return c
}

func TestOwnedDecoders_AgreeWithUnmarshal(t *testing.T) {
	envs, replies := ownedSamples(t)
	for i, b := range envs {
		if ef, _ := checkOwned(t, b); !ef {
			t.Errorf("envelope %d: the hand decoder declined what Marshal wrote", i)
		}
	}
	for i, b := range replies {
		_, rf := checkOwned(t, b)
		if want := i < 2; rf != want {
			t.Errorf("reply %d: hand decoder took it = %v, want %v", i, rf, want)
		}
	}
	// What unmarshalOwned returns aliases the body instead of copying it.
	var rep JobInfoReply
	if err := unmarshalOwned(replies[0], &rep); err != nil {
		t.Fatal(err)
	}
	if err := rep.Unpack(); err != nil || len(rep.Jobs) != 2 || rep.Jobs[0].Name != "a" || rep.Jobs[0].CPUsPerNode[0] != 2 {
		t.Fatalf("Unpack = %v, %+v", err, rep.Jobs)
	}
}

func FuzzOwnedDecoders(f *testing.F) {
	envs, replies := ownedSamples(f)
	for _, b := range append(envs, replies...) {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkOwned(t, b) })
}
