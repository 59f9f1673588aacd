package wire

import "unsafe"

// Decoding a frame the reader owns. A frame's payload is read into a buffer allocated for that
// frame alone (readFramePayload) and never reused, so what is decoded from it may point into
// it instead of copying: with a 10,000-job squeue reply the decoder's copies (the envelope's Body,
// then the reply's Packed) were two more copies of megabytes, each on freshly faulted pages,
// which on a virtual machine cost more than the decoding itself. Only the shapes that matter
// are decoded by hand; anything else (an unknown key, an unexpected type, a non-empty job
// list) falls back to Unmarshal, so the hand decoders never decide what is an error.

// decodeEnvelopeOwned decodes a frame payload whose buffer nothing else will write: Cred and
// Body alias b.
func decodeEnvelopeOwned(b []byte) (*Envelope, error) {
	if env, ok := envelopeFast(b); ok {
		return env, nil
	}
	return DecodeEnvelope(b)
}

// envelopeFast decodes the envelope Marshal writes; false when b is anything else.
func envelopeFast(b []byte) (*Envelope, bool) {
	r := packReader{s: unsafe.String(unsafe.SliceData(b), len(b))}
	n, err := r.mapLen()
	if err != nil {
		return nil, false
	}
	env := new(Envelope)
	for k := 0; k < n; k++ {
		key, err := r.str()
		if err != nil {
			return nil, false
		}
		switch key {
		case "v":
			v, ok := r.smallUint(0xffff)
			if !ok {
				return nil, false
			}
			env.Version = uint16(v)
		case "t":
			v, ok := r.smallUint(0xffff)
			if !ok {
				return nil, false
			}
			env.Type = MsgType(v)
		case "id":
			v, ok := r.smallUint(^uint64(0))
			if !ok {
				return nil, false
			}
			env.ReqID = v
		case "cred", "body":
			v, ok := r.binOwned(b)
			if !ok {
				return nil, false
			}
			if key == "cred" {
				env.Cred = v
			} else {
				env.Body = v
			}
		default:
			return nil, false
		}
	}
	if r.i != len(b) || env.Type == 0 {
		return nil, false
	}
	return env, true
}

// unmarshalOwned is Unmarshal for a body whose buffer nothing else will write: a packed job
// list aliases it.
func unmarshalOwned(b []byte, v any) error {
	if rep, ok := v.(*JobInfoReply); ok && jobInfoReplyFast(b, rep) {
		return nil
	}
	return Unmarshal(b, v)
}

// jobInfoReplyFast decodes a packed JobInfoReply into rep (a zero value); false, with rep
// left zero, when b is anything else.
func jobInfoReplyFast(b []byte, rep *JobInfoReply) bool {
	if !(rep.LastUpdate == 0 && rep.Jobs == nil && rep.Steps == nil && rep.Packed == nil) {
		return false
	}
	r := packReader{s: unsafe.String(unsafe.SliceData(b), len(b))}
	n, err := r.mapLen()
	if err != nil {
		return false
	}
	var got JobInfoReply
	for k := 0; k < n; k++ {
		key, err := r.str()
		if err != nil {
			return false
		}
		switch key {
		case "last_update":
			if r.i >= len(r.s) || r.s[r.i] == 0xc0 {
				return false
			}
			v, err := r.int()
			if err != nil {
				return false
			}
			got.LastUpdate = int64(v)
		case "jobs", "steps":
			// Only an absent list: the packed form carries the jobs.
			if cnt, err := r.arrayLen(); err != nil || cnt != 0 {
				return false
			}
		case "packed":
			v, ok := r.binOwned(b)
			if !ok {
				return false
			}
			got.Packed = v
		default:
			return false
		}
	}
	if r.i != len(b) || got.Packed == nil {
		return false
	}
	*rep = got
	return true
}

// smallUint reads a non-negative integer no larger than max.
func (r *packReader) smallUint(max uint64) (uint64, bool) {
	if r.i >= len(r.s) {
		return 0, false
	}
	c := r.s[r.i]
	if c >= 0xd0 && c <= 0xd3 || c >= 0xe0 || c == 0xc0 {
		return 0, false // a signed form or nil: leave it to the general decoder
	}
	v, err := r.int()
	if err != nil || v > max {
		return 0, false
	}
	return v, true
}

// binOwned reads a bin or str value as a slice of b (the bytes r reads); nil for nil.
func (r *packReader) binOwned(b []byte) ([]byte, bool) {
	if r.i >= len(r.s) {
		return nil, false
	}
	if r.s[r.i] == 0xc0 {
		r.i++
		return nil, true
	}
	s, err := r.str()
	if err != nil {
		return nil, false
	}
	end := r.i
	return b[end-len(s) : end : end], true
}
