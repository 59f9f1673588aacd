package scheduler

import (
	"fmt"
	"reflect"

	"github.com/ugorji/go/codec"
	"google.golang.org/grpc/encoding"
)

// codecName is the gRPC content subtype of Orbit's scheduler messages
// (application/grpc+orbit-msgpack). go-plugin's own services keep protobuf; only the
// scheduler service's calls ask for this codec.
const codecName = "orbit-msgpack"

// msgpackHandle is configured once, before first use, and never changed (STYLE.md): codec
// tags only, strings decoded as strings, integers for times.
var msgpackHandle = func() *codec.MsgpackHandle {
	h := &codec.MsgpackHandle{}
	h.WriteExt = true
	h.RawToString = true
	h.TypeInfos = codec.NewTypeInfos([]string{"codec"})
	h.Canonical = true
	h.MapType = reflect.TypeOf(map[string]any(nil))
	// A message claiming 2^32 elements must not make the decoder allocate them up front.
	h.MaxInitLen = 1024
	h.MaxDepth = 64
	return h
}()

// msgpackCodec is a grpc encoding.Codec carrying the contract's types as msgpack.
type msgpackCodec struct{}

func (msgpackCodec) Name() string { return codecName }

// Marshal encodes v with the one shared handle.
func (msgpackCodec) Marshal(v any) ([]byte, error) {
	var b []byte
	if err := codec.NewEncoderBytes(&b, msgpackHandle).Encode(v); err != nil {
		return nil, fmt.Errorf("scheduler: encode %T: %w", v, err)
	}
	return b, nil
}

// Unmarshal decodes data into v, which gRPC always hands over freshly allocated, so nothing
// merges into an earlier value.
func (msgpackCodec) Unmarshal(data []byte, v any) error {
	if err := codec.NewDecoderBytes(data, msgpackHandle).Decode(v); err != nil {
		return fmt.Errorf("scheduler: decode %T: %w", v, err)
	}
	return nil
}

func init() { encoding.RegisterCodec(msgpackCodec{}) }
