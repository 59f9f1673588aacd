package wire

import (
	"fmt"
	"reflect"

	"github.com/ugorji/go/codec"
)

// The ugorji handle the wire used before it had its own codec, option for option: the
// reference msgpack_test.go holds the new codec to. ugorji stays a test-only import.
func ugorjiHandle() *codec.MsgpackHandle {
	h := &codec.MsgpackHandle{}
	h.TypeInfos = codec.NewTypeInfos([]string{"codec"})
	h.WriteExt = true
	h.RawToString = true
	h.Canonical = true
	h.StructToArray = false
	h.ErrorIfNoField = false
	h.PositiveIntUnsigned = false
	h.NoFixedNum = false
	h.MapType = reflect.TypeOf(map[string]any(nil))
	h.SliceType = reflect.TypeOf([]any(nil))
	h.SignedInteger = true
	h.MaxInitLen = 1024
	h.MaxDepth = 64
	h.ZeroCopy = false
	h.Raw = false
	return h
}

// pluginHandle is plugins/scheduler's grpc_codec handle (it keeps ugorji): the same
// encoding options, so the contract types' bytes must match too.
func pluginHandle() *codec.MsgpackHandle {
	h := &codec.MsgpackHandle{}
	h.WriteExt = true
	h.RawToString = true
	h.TypeInfos = codec.NewTypeInfos([]string{"codec"})
	h.Canonical = true
	h.MapType = reflect.TypeOf(map[string]any(nil))
	h.MaxInitLen = 1024
	h.MaxDepth = 64
	return h
}

var (
	ugorjiWire   = ugorjiHandle()
	ugorjiPlugin = pluginHandle()
)

func ugorjiMarshal(h *codec.MsgpackHandle, v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ugorji encode panicked: %v", r)
		}
	}()
	err = codec.NewEncoderBytes(&b, h).Encode(v)
	return b, err
}

// ugorjiUnmarshal decodes b into v as the old Unmarshal did: one value, nothing left over.
func ugorjiUnmarshal(b []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ugorji decode panicked: %v", r)
		}
	}()
	d := codec.NewDecoderBytes(b, ugorjiWire)
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.NumBytesRead() != len(b) {
		return ErrTrailingBytes
	}
	return nil
}
