package wire

import (
	"errors"
	"fmt"
	"reflect"
)

// The wire's msgpack options are fixed in msgpack.go's codec, which writes exactly what the
// ugorji/go/codec handle this package used to configure wrote (its options were: codec
// tags only, WriteExt, RawToString, Canonical, structs as maps with unknown keys skipped,
// PositiveIntUnsigned and NoFixedNum off, MapType map[string]any, SliceType []any,
// SignedInteger, MaxInitLen 1024, MaxDepth 64, no zero-copy). Every one of them changes the
// bytes on the wire; the golden tests in testdata and msgpack_test.go's comparison with
// ugorji pin them.

// Errors returned by Marshal and Unmarshal.
var (
	// ErrTrailingBytes reports input left over after one complete value.
	ErrTrailingBytes = errors.New("wire: trailing bytes after message")
	// ErrNotFresh reports an Unmarshal target that is not a zero value; the decoder merges
	// into existing maps and slices, so decoding over old data would mix two messages.
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

// marshalCodec is Marshal by the reflective encoder alone.
func marshalCodec(v any) ([]byte, error) {
	b, err := mpMarshal(v)
	if err != nil {
		return nil, fmt.Errorf("wire: encode %T: %w", v, err)
	}
	return b, nil
}

// Unmarshal decodes exactly one msgpack value from b into v, which must be a non-nil pointer
// to a fresh zero value (as returned by New): decoding into a value that already holds data
// would merge into its maps and slices. Bytes left over after the value are an error.
func Unmarshal(b []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("wire: unmarshal into %T: need a non-nil pointer", v)
	}
	if !rv.Elem().IsZero() {
		return fmt.Errorf("%w (got %T)", ErrNotFresh, v)
	}
	n, err := mpUnmarshal(b, rv)
	if err != nil {
		return fmt.Errorf("wire: decode %T: %w", v, err)
	}
	if n != len(b) {
		return fmt.Errorf("%w: %d of %d bytes unread decoding %T", ErrTrailingBytes, len(b)-n, len(b), v)
	}
	return nil
}
