package wire

import (
	"encoding/binary"
	"math"
)

// Encoding the two messages of a large answer by hand. Marshal grows its output by doubling,
// and EncodeFrame then copies the encoded envelope once more, so a 10,000-job squeue reply
// was copied some six times on the controller; these write the same bytes as Marshal (a
// test compares them) straight into one buffer. Only the shapes that matter are written
// here; Marshal writes everything else.

// marshalFast encodes the messages written by hand; false for anything else.
func marshalFast(v any) ([]byte, bool) {
	if r, ok := v.(*JobInfoReply); ok && r != nil && r.Jobs == nil && r.Steps == nil && r.Packed != nil {
		if b, ok := r.marshalInPlace(); ok { // frame_inplace.go
			return b, true
		}
		return appendJobInfoReplyPacked(make([]byte, 0, len(r.Packed)+64), r), true
	}
	return nil, false
}

// appendJobInfoReplyPacked appends a packed JobInfoReply (no Jobs, no Steps) as Marshal does:
// a map of its four fields in key order.
func appendJobInfoReplyPacked(b []byte, r *JobInfoReply) []byte {
	b = appendJobInfoReplyPrefix(b, r)
	b = append(b, r.Packed...)
	return append(b, jobInfoReplySuffix...)
}

// appendJobInfoReplyPrefix appends a packed JobInfoReply's encoding up to its list's bytes.
func appendJobInfoReplyPrefix(b []byte, r *JobInfoReply) []byte {
	b = append(b, 0x84)
	b = appendStr(b, "jobs")
	b = append(b, 0xc0)
	b = appendStr(b, "last_update")
	b = appendCodecInt(b, r.LastUpdate)
	b = appendStr(b, "packed")
	return appendBinHeader(b, len(r.Packed))
}

// jobInfoReplySuffix is a packed JobInfoReply's encoding after its list: "steps", nil.
var jobInfoReplySuffix = []byte{0xa5, 's', 't', 'e', 'p', 's', 0xc0}

// encodeFrameFast is EncodeFrame's result: the length prefix and the envelope as Marshal
// encodes it (a map of its five fields in key order), written around the body where it lies
// when the body came with room for that (frame_inplace.go), else built in one buffer.
func encodeFrameFast(env *Envelope) ([]byte, bool) {
	if frame, ok := env.frameInPlace(); ok {
		return frame, true
	}
	n := len(env.Body) + len(env.Cred) + 64
	if uint64(n) > math.MaxUint32 {
		return nil, false
	}
	b := make([]byte, frameHeaderLen, frameHeaderLen+n)
	b = append(b, 0x85)
	b = appendStr(b, "body")
	b = appendBin(b, env.Body)
	b = appendEnvelopeTail(b, env)
	binary.BigEndian.PutUint32(b, uint32(len(b)-frameHeaderLen))
	return b, true
}

// appendEnvelopeBodyPrefix appends an envelope's encoding up to its body's bytes, for a body
// of n bytes (not nil).
func appendEnvelopeBodyPrefix(b []byte, n int) []byte {
	b = append(b, 0x85)
	b = appendStr(b, "body")
	return appendBinHeader(b, n)
}

// appendEnvelopeTail appends an envelope's encoding after its body: cred, id, t and v.
func appendEnvelopeTail(b []byte, env *Envelope) []byte {
	b = appendStr(b, "cred")
	b = appendBin(b, env.Cred)
	b = appendStr(b, "id")
	b = appendUint(b, env.ReqID)
	b = appendStr(b, "t")
	b = appendUint(b, uint64(env.Type))
	b = appendStr(b, "v")
	return appendUint(b, uint64(env.Version))
}

// appendBin appends a []byte as Marshal does: nil as nil, anything else as bin.
func appendBin(b, v []byte) []byte {
	if v == nil {
		return append(b, 0xc0)
	}
	return append(appendBinHeader(b, len(v)), v...)
}

// appendBinHeader appends the header of a bin of n bytes, in the smallest form.
func appendBinHeader(b []byte, n int) []byte {
	switch {
	case n <= math.MaxUint8:
		return append(b, 0xc4, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xc5), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, 0xc6), uint32(n))
}

// appendCodecInt appends a signed integer as Marshal does (PositiveIntUnsigned off): a
// positive value past the fixint range takes a signed form, unlike appendInt's.
func appendCodecInt(b []byte, v int64) []byte {
	switch {
	case v < 0:
		return appendInt(b, v)
	case v <= math.MaxInt8:
		return append(b, byte(v))
	case v <= math.MaxInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(v))
	case v <= math.MaxInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(v))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(v))
}
