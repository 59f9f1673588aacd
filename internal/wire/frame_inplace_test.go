package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"
)

// inPlace builds a packed reply as the controller does (NewPackedJobList, PackedJobInfoReply)
// around list, frames it as the server does, and checks the frame against ugorji's bytes for
// the same envelope. It reports whether the frame was written in the list's own buffer.
func inPlace(t *testing.T, list []byte, last int64, env Envelope) bool {
	t.Helper()
	buf := append(NewPackedJobList(len(list)), list...)
	rep := PackedJobInfoReply(last, buf)
	body, err := Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want, err := marshalCodec(&JobInfoReply{LastUpdate: last, Packed: list})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, want) {
		t.Fatalf("reply (%d bytes, last %d):\nin place %x\ncodec    %x", len(list), last, body, want)
	}
	env.Body, env.room = body, frameRoom(rep)
	frame, err := EncodeFrame(&env)
	if err != nil {
		t.Fatal(err)
	}
	env.room = nil
	wantEnv, err := marshalCodec(&env)
	if err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(frame) != uint32(len(wantEnv)) || !bytes.Equal(frame[frameHeaderLen:], wantEnv) {
		t.Fatalf("frame (%d bytes, cred %d):\nin place %x\ncodec    %x", len(list), len(env.Cred), frame[frameHeaderLen:], wantEnv)
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(frame)))
	return at >= base && at < base+uintptr(cap(buf))
}

// TestInPlace_SameBytesNoCopy: a packed reply and its frame written in the list's own buffer
// are byte for byte what Marshal and EncodeFrame write for the same values; a credential too
// long for the room is framed by copying, with the same bytes.
func TestInPlace_SameBytesNoCopy(t *testing.T) {
	for _, n := range []int{1, 255, 256, 65535, 65536, 70000} {
		list := bytes.Repeat([]byte{0x5a}, n)
		for _, last := range []int64{0, 127, 128, 1 << 31, 1_700_000_000, -1} {
			env := Envelope{Version: ProtocolVersion, Type: MsgJobInfo, ReqID: uint64(last) + 7, Cred: bytes.Repeat([]byte{1}, 300)}
			if !inPlace(t, list, last, env) {
				t.Errorf("%d bytes, last %d: framed by copying, want in place", n, last)
			}
		}
		if inPlace(t, list, 5, Envelope{Version: ProtocolVersion, Type: MsgJobInfo, Cred: bytes.Repeat([]byte{2}, 2*packedTailroom)}) {
			t.Errorf("%d bytes: a credential longer than the room was framed in place", n)
		}
	}
}

// FuzzInPlaceFrame: whatever the list, time, credential and ids, the in-place reply and
// frame are Marshal's and EncodeFrame's bytes.
func FuzzInPlaceFrame(f *testing.F) {
	f.Add([]byte{1, 2, 3}, int64(9), []byte("cred"), uint64(1), uint16(3))
	f.Add(bytes.Repeat([]byte{7}, 300), int64(-40000), []byte{}, uint64(1<<40), uint16(65535))
	f.Fuzz(func(t *testing.T, list []byte, last int64, cred []byte, id uint64, typ uint16) {
		if len(list) == 0 {
			return // an empty list is not packed (PackedJobInfoReply needs one)
		}
		inPlace(t, list, last, Envelope{Version: ProtocolVersion, Type: MsgType(typ), ReqID: id, Cred: cred})
	})
}
