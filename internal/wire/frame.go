package wire

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ProtocolVersion is the envelope version this build speaks. A peer sending another version is
// answered with SLURM_PROTOCOL_VERSION_ERROR.
const ProtocolVersion uint16 = 1

// DefaultMaxFrameSize bounds a frame's payload (the length prefix excluded).
const DefaultMaxFrameSize uint32 = 64 << 20

// frameHeaderLen is the size of the big-endian length prefix.
const frameHeaderLen = 4

// readChunk is how much a frame buffer grows at a time: a peer that announces a large frame
// and then sends nothing costs us this much, not the announced length.
const readChunk = 1 << 20

// Errors reading and decoding frames. They are wrapped with details; test with errors.Is.
var (
	// ErrFrameTooLarge reports a length prefix over the connection's maximum.
	ErrFrameTooLarge = errors.New("wire: frame too large")
	// ErrFrameTruncated reports a connection that ended inside a frame.
	ErrFrameTruncated = errors.New("wire: frame truncated")
	// ErrBadFrame reports a frame whose payload is not a valid envelope.
	ErrBadFrame = errors.New("wire: undecodable frame")
)

// Envelope is what every frame carries: the message type and request id, the sender's
// credential, and the encoded message.
type Envelope struct {
	Version uint16  `codec:"v"`
	Type    MsgType `codec:"t"`
	// ReqID pairs a reply with its request; a reply carries its request's ReqID.
	ReqID uint64 `codec:"id"`
	// Cred is an opaque authentication credential, signed over BodyDigest(Body) by the auth
	// package; empty when the sender signs nothing.
	Cred []byte `codec:"cred"`
	// Body is the msgpack encoding of the message registered as Type.
	Body []byte `codec:"body"`

	// room is a buffer Body lies in with room around it, in which the frame may be written
	// in place (frame_inplace.go); not sent.
	room []byte
}

// BodyDigest returns the SHA-256 of an encoded message body: what a credential signs.
func BodyDigest(body []byte) [32]byte { return sha256.Sum256(body) }

// DecodeEnvelope decodes a frame payload into a fresh Envelope.
func DecodeEnvelope(b []byte) (*Envelope, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty payload", ErrBadFrame)
	}
	env := new(Envelope)
	if err := Unmarshal(b, env); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	if env.Type == 0 {
		return nil, fmt.Errorf("%w: message type 0", ErrBadFrame)
	}
	return env, nil
}

// EncodeFrame returns env as one frame: the length prefix followed by the encoded envelope.
func EncodeFrame(env *Envelope) ([]byte, error) {
	if frame, ok := encodeFrameFast(env); ok { // frame_fast.go: the same bytes, one copy
		return frame, nil
	}
	payload, err := Marshal(env)
	if err != nil {
		return nil, err
	}
	if uint64(len(payload)) > uint64(^uint32(0)) {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(payload))
	}
	frame := make([]byte, frameHeaderLen+len(payload))
	binary.BigEndian.PutUint32(frame, uint32(len(payload)))
	copy(frame[frameHeaderLen:], payload)
	return frame, nil
}

// WriteFrame writes env to w as one frame, in a single Write.
func WriteFrame(w io.Writer, env *Envelope) error {
	frame, err := EncodeFrame(env)
	if err != nil {
		return err
	}
	_, err = w.Write(frame)
	return err
}

// ReadFrame reads one frame from r and decodes its envelope. A frame longer than max bytes is
// refused before anything is allocated for it. io.EOF means r ended cleanly between frames;
// ErrFrameTruncated, ErrFrameTooLarge and ErrBadFrame describe a broken peer.
func ReadFrame(r io.Reader, max uint32) (*Envelope, error) {
	n, err := readFrameHeader(r, max)
	if err != nil {
		return nil, err
	}
	return readFramePayload(r, n)
}

// readFrameHeader reads and checks the length prefix.
func readFrameHeader(r io.Reader, max uint32) (uint32, error) {
	var hdr [frameHeaderLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, fmt.Errorf("%w: %v", ErrFrameTruncated, err)
		}
		return 0, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n == 0 {
		return 0, fmt.Errorf("%w: zero length", ErrBadFrame)
	}
	if n > max {
		return 0, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	return n, nil
}

// readFramePayload reads n payload bytes, growing the buffer as they arrive, and decodes them.
func readFramePayload(r io.Reader, n uint32) (*Envelope, error) {
	buf := make([]byte, 0, min(int(n), readChunk))
	for len(buf) < int(n) {
		want := min(int(n)-len(buf), readChunk)
		if cap(buf)-len(buf) < want {
			grown := make([]byte, len(buf), min(int(n), 2*cap(buf)+want))
			copy(grown, buf)
			buf = grown
		}
		got, err := io.ReadFull(r, buf[len(buf):len(buf)+want])
		buf = buf[:len(buf)+got]
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%w: %d of %d bytes", ErrFrameTruncated, len(buf), n)
			}
			return nil, err
		}
	}
	return decodeEnvelopeOwned(buf) // buf is this frame's alone (frame_owned.go)
}
