package wire

import (
	"encoding/binary"
	"unsafe"
)

// Framing a large packed job list where it lies. A whole-queue squeue of 100,000 jobs packs
// some 55 MB; encoding the reply around it and then the envelope around that copied it twice
// more, each copy on freshly faulted pages that the controller's heap kept afterwards. A list
// built in a buffer from NewPackedJobList has room before and after it, and the reply, the
// envelope and the frame's length prefix are written into that room instead: the frame the
// server sends is the list's own buffer. When the room does not suffice (a credential longer
// than packedTailroom allows), the copying encoders of frame_fast.go write the same bytes.

// packedHeadroom is the room before the list: the frame's length prefix and the envelope up
// to its body's bytes (at most 15 bytes), and the reply up to its packed list's bytes (at
// most 46).
const packedHeadroom = 64

// packedTailroom is the room left after the list's expected size: the reply's last field,
// then the envelope's credential (a few hundred bytes for munge), request id, type and
// version.
const packedTailroom = 1024

// NewPackedJobList returns an empty buffer, with room for about size bytes, to append a
// packed job list to (AppendJobInfoListHeader, AppendJobInfo) and hand to PackedJobInfoReply.
func NewPackedJobList(size int) []byte {
	return make([]byte, packedHeadroom, packedHeadroom+max(size, 0)+packedTailroom)
}

// PackedJobInfoReply is the reply carrying list, a buffer from NewPackedJobList with the
// packed jobs appended. The server frames it in place.
func PackedJobInfoReply(lastUpdate int64, list []byte) *JobInfoReply {
	if len(list) < packedHeadroom {
		return &JobInfoReply{LastUpdate: lastUpdate, Packed: list}
	}
	return &JobInfoReply{LastUpdate: lastUpdate, Packed: list[packedHeadroom:], room: list}
}

// frameRoom is the buffer a reply may be framed in (nil: none); the server hands it to the
// envelope.
func frameRoom(resp any) []byte {
	if r, ok := resp.(*JobInfoReply); ok && r != nil {
		return r.room
	}
	return nil
}

// marshalInPlace writes r's encoding around its packed list, in the room PackedJobInfoReply
// left, and returns it; false when r has no such room.
func (r *JobInfoReply) marshalInPlace() ([]byte, bool) {
	room := r.room
	if len(room) < packedHeadroom || len(r.Packed) == 0 ||
		unsafe.SliceData(room[packedHeadroom:]) != unsafe.SliceData(r.Packed) || len(room) != packedHeadroom+len(r.Packed) {
		return nil, false
	}
	var pre [48]byte
	p := appendJobInfoReplyPrefix(pre[:0], r)
	end := len(room)
	if len(p) > packedHeadroom-envelopeBodyPrefixMax || cap(room)-end < len(jobInfoReplySuffix) {
		return nil, false
	}
	start := packedHeadroom - len(p)
	copy(room[start:], p)
	return append(room[:end], jobInfoReplySuffix...)[start:], true
}

// envelopeBodyPrefixMax is the most bytes before an envelope's body in its frame: the length
// prefix, the map header, "body" and a bin32 header.
const envelopeBodyPrefixMax = frameHeaderLen + 1 + 5 + 5

// frameInPlace writes env's frame around its body, in the room it was given (env.room, the
// buffer the body lies in); false when the body is not in it or the room does not suffice.
func (env *Envelope) frameInPlace() ([]byte, bool) {
	room, body := env.room, env.Body
	if len(body) == 0 || cap(room) == 0 {
		return nil, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(room)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(body)))
	if at < base || at-base > uintptr(cap(room)) || uintptr(len(body)) > uintptr(cap(room))-(at-base) {
		return nil, false
	}
	off := int(at - base)
	var pre [envelopeBodyPrefixMax]byte
	p := appendEnvelopeBodyPrefix(append(pre[:0], 0, 0, 0, 0), len(body))
	tail := appendEnvelopeTail(make([]byte, 0, len(env.Cred)+48), env)
	end := off + len(body)
	if off < len(p) || cap(room)-end < len(tail) || uint64(end+len(tail)-(off-len(p))-frameHeaderLen) > uint64(^uint32(0)) {
		return nil, false
	}
	start := off - len(p)
	copy(room[start:], p)
	frame := append(room[start:end], tail...)
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-frameHeaderLen))
	return frame, true
}
