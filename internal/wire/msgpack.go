package wire

// Orbit's own msgpack codec. Every daemon and command encodes messages with it; it replaced
// github.com/ugorji/go/codec, whose package init (and the net/rpc, encoding/gob, net/http
// and html/template it drags in through its rpc.go) cost each command ~10 ms of start-up
// CPU and ~8 MB of binary. It writes the bytes ugorji's handle wrote, option for option —
// msgpack_test.go compares the two on every registered message — so peers built before and
// after the switch interoperate:
//
//   - Structs are maps keyed by the `codec` tag's name (the Go field name when untagged; a
//     `json` tag means nothing), keys sorted by name (Canonical). `codec:"-"`, unexported,
//     func and unsafe.Pointer fields are left out; ",omitempty" leaves a field out when its
//     memory is all zero bytes (ugorji's test, so an empty string that still points into a
//     buffer is written). Untagged embedded structs are flattened; a shallower field beats a
//     deeper one of the same name, and between equals the first wins.
//   - Map keys are sorted: strings and numbers by value, false before true, anything else by
//     its encoded bytes.
//   - Integers take msgpack's smallest form, signed types in signed forms past fixint
//     (PositiveIntUnsigned off, NoFixedNum off).
//   - Strings are str (with str8), []byte and [N]byte are bin (WriteExt); nil slices, maps,
//     pointers and interfaces are nil, empty ones are empty containers.
//   - time.Time is msgpack's timestamp extension, a type implementing both
//     encoding.BinaryMarshaler and encoding.BinaryUnmarshaler travels as its bytes.
//
// Decoding is lenient where ugorji is (any integer form into any integer type within range,
// a float without fraction into an integer, 0 and 1 into a bool, str or bin or an array of
// small integers into a string or []byte, a struct from an array in field order), skips
// unknown keys (ErrorIfNoField off), and decodes into an `any` as map[string]any, []any,
// int64 (SignedInteger), float64, string (RawToString), bool, time.Time or nil. Unlike
// ugorji, an extension other than the timestamp cannot be decoded into an `any` (ugorji
// gives its own RawExt type), and a repeated map key replaces the earlier value rather than
// merging into it: neither occurs in what the encoder writes.
//
// Hostile input is bounded: no container is allocated beyond mpMaxInitLen elements before
// its elements have been read (MaxInitLen), nesting stops at mpMaxDepth containers
// (MaxDepth, also while skipping an unknown value), and a length past the end of the input
// is an error before anything is allocated.

import (
	"errors"
	"fmt"
)

const (
	// mpMaxInitLen caps the elements allocated for a container before they are read: a frame
	// claiming 2^32 elements must not make the decoder allocate them up front.
	mpMaxInitLen = 1024
	// mpMaxDepth is the deepest nesting of maps and arrays the decoder accepts.
	mpMaxDepth = 64
)

var (
	// errMsgpack is the root of the codec's own errors (malformed or mistyped input, a value
	// msgpack cannot carry).
	errMsgpack = errors.New("msgpack")
	// errCodecBug marks a panic the codec did not raise itself: a bug, reported as an error
	// all the same (the fuzz tests look for it).
	errCodecBug = errors.New("msgpack: internal error")
)

// mpError carries a decoding or encoding error up through the recursive codec by panic; the
// top level recovers it (and any other panic) into an ordinary error.
type mpError struct{ err error }

func mpFail(format string, args ...any) {
	panic(mpError{fmt.Errorf("%w: "+format, append([]any{errMsgpack}, args...)...)})
}

// mpRecover turns a panic of the codec into *err; call it deferred.
func mpRecover(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(mpError); ok {
		*err = e.err
		return
	}
	*err = fmt.Errorf("%w: %v", errCodecBug, r)
}
