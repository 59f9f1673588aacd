package wire

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/ugorji/go/codec"
)

// handle is the one msgpack handle of the whole system. It is configured here, once, and never
// modified afterwards: ugorji/go/codec ignores (or races on) changes made after first use, and
// every option below changes the bytes on the wire. The golden tests in testdata pin them.
var handle = newHandle()

func newHandle() *codec.MsgpackHandle {
	h := &codec.MsgpackHandle{}
	// Only the `codec` struct tag names fields; a stray `json` tag must not rename a field on
	// the wire.
	h.TypeInfos = codec.NewTypeInfos([]string{"codec"})
	// The current msgpack spec: str8 and bin types, so strings and []byte stay distinct.
	h.WriteExt = true
	// Raw bytes decoded into an interface{} become strings (only schema-less decoding).
	h.RawToString = true
	// Map keys sorted, so one value always encodes to the same bytes (digests, golden tests).
	h.Canonical = true
	// Structs travel as maps keyed by their tag names, so fields can be appended to a message
	// without breaking older peers (unknown keys are skipped when decoding).
	h.StructToArray = false
	h.ErrorIfNoField = false
	// Integers keep msgpack's smallest form; positive ints are not forced to unsigned.
	h.PositiveIntUnsigned = false
	h.NoFixedNum = false
	// Schema-less decoding (into any) yields these types.
	h.MapType = reflect.TypeOf(map[string]any(nil))
	h.SliceType = reflect.TypeOf([]any(nil))
	h.SignedInteger = true
	// A frame claiming 2^32 elements must not make the decoder allocate them up front.
	h.MaxInitLen = 1024
	h.MaxDepth = 64
	// Decoded strings and []byte never alias the frame buffer, which is reused or freed.
	h.ZeroCopy = false
	// Encoding never blindly copies codec.Raw: every body is a []byte we produced.
	h.Raw = false
	return h
}

// Errors returned by Marshal and Unmarshal.
var (
	// ErrTrailingBytes reports input left over after one complete value.
	ErrTrailingBytes = errors.New("wire: trailing bytes after message")
	// ErrNotFresh reports an Unmarshal target that is not a zero value; ugorji merges into
	// existing maps and slices, so decoding over old data would mix two messages.
	ErrNotFresh = errors.New("wire: unmarshal target must be a pointer to a fresh (zero) value")
)

// Marshal returns the msgpack encoding of v under Orbit's handle. Messages must carry times as
// int64 Unix seconds or nanoseconds, never time.Time: time encodings have changed between
// codec versions (a test rejects any registered message holding a time.Time).
func Marshal(v any) (b []byte, err error) {
	if b, ok := marshalFast(v); ok { // frame_fast.go: the same bytes, fewer copies
		return b, nil
	}
	return marshalCodec(v)
}

// marshalCodec is Marshal by ugorji's encoder alone.
func marshalCodec(v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("wire: encode %T: %v", v, r)
		}
	}()
	if err := codec.NewEncoderBytes(&b, handle).Encode(v); err != nil {
		return nil, fmt.Errorf("wire: encode %T: %w", v, err)
	}
	return b, nil
}

// Unmarshal decodes exactly one msgpack value from b into v, which must be a non-nil pointer
// to a fresh zero value (as returned by New): decoding into a value that already holds data
// would merge into its maps and slices. Bytes left over after the value are an error.
func Unmarshal(b []byte, v any) (err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("wire: unmarshal into %T: need a non-nil pointer", v)
	}
	if !rv.Elem().IsZero() {
		return fmt.Errorf("%w (got %T)", ErrNotFresh, v)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("wire: decode %T: %v", v, r)
		}
	}()
	d := codec.NewDecoderBytes(b, handle)
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("wire: decode %T: %w", v, err)
	}
	if n := d.NumBytesRead(); n != len(b) {
		return fmt.Errorf("%w: %d of %d bytes unread decoding %T", ErrTrailingBytes, len(b)-n, len(b), v)
	}
	return nil
}
