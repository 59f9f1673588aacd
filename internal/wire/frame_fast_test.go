package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// checkFast says the hand encoders write exactly what ugorji's encoder writes.
func checkFast(t *testing.T, env *Envelope, rep *JobInfoReply) {
	frame, ok := encodeFrameFast(env)
	if !ok {
		t.Fatalf("encodeFrameFast declined %+v", env)
	}
	want, err := marshalCodec(env)
	if err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(frame) != uint32(len(want)) || !bytes.Equal(frame[frameHeaderLen:], want) {
		t.Fatalf("envelope %+v:\nfast  %x\ncodec %x", env, frame[frameHeaderLen:], want)
	}
	got, ok := marshalFast(rep)
	if !ok {
		if rep.Packed != nil {
			t.Fatalf("marshalFast declined %+v", rep)
		}
		return
	}
	if want, err = marshalCodec(rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("reply %+v:\nfast  %x\ncodec %x", rep, got, want)
	}
}

func TestFastEncoders_MatchCodec(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 65535, 65536, 70000} {
		body := bytes.Repeat([]byte{0xa5}, n)
		for _, v := range []int64{0, 1, 127, 128, 255, 256, 32767, 32768, 65536, 1 << 31, -1, -32, -33, -128, -129, -40000, -1 << 40, 1_700_000_000} {
			env := &Envelope{Version: uint16(v), Type: MsgType(v), ReqID: uint64(v), Body: body}
			if v%2 == 0 {
				env.Cred = body[:min(n, 3)]
			}
			checkFast(t, env, &JobInfoReply{LastUpdate: v, Packed: body})
		}
	}
	checkFast(t, &Envelope{}, &JobInfoReply{})
}

func FuzzFastEncoders(f *testing.F) {
	f.Add(uint16(1), uint16(2), uint64(3), []byte("c"), []byte("body"), int64(1_700_000_000), false)
	f.Add(uint16(0), uint16(0), uint64(0), []byte(nil), []byte(nil), int64(-1), true)
	f.Fuzz(func(t *testing.T, v, typ uint16, id uint64, cred, body []byte, last int64, nilPacked bool) {
		packed := body
		if nilPacked {
			packed = nil
		}
		checkFast(t, &Envelope{Version: v, Type: MsgType(typ), ReqID: id, Cred: cred, Body: body}, &JobInfoReply{LastUpdate: last, Packed: packed})
	})
}
