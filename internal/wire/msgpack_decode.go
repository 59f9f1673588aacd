package wire

import (
	"encoding"
	"encoding/binary"
	"math"
	"reflect"
	"time"
	"unsafe"
)

// mpDecoder reads one msgpack value from b.
type mpDecoder struct {
	b     []byte
	i     int
	depth int
}

// mpUnmarshal decodes one value from b into the non-nil pointer ptr and returns how many
// bytes it read.
func mpUnmarshal(b []byte, ptr reflect.Value) (n int, err error) {
	defer mpRecover(&err)
	d := mpDecoder{b: b}
	d.field(mpTypeOf(ptr.Type().Elem()), ptr.UnsafePointer())
	return d.i, nil
}

// field decodes the next value into p, a nil setting it to its zero value.
func (d *mpDecoder) field(t *mpType, p unsafe.Pointer) {
	if d.tryNil() {
		reflect.NewAt(t.rt, p).Elem().SetZero()
		return
	}
	t.dec(d, p)
}

func (d *mpDecoder) eof() {
	mpFail("unexpected end of input at byte %d", d.i)
}

func (d *mpDecoder) peek() byte {
	if d.i >= len(d.b) {
		d.eof()
	}
	return d.b[d.i]
}

func (d *mpDecoder) next() byte {
	if d.i >= len(d.b) {
		d.eof()
	}
	c := d.b[d.i]
	d.i++
	return c
}

// take returns the next n bytes of the input (a view, not a copy).
func (d *mpDecoder) take(n uint64) []byte {
	if n > uint64(len(d.b)-d.i) {
		mpFail("length %d at byte %d runs past the end of input (%d bytes left)", n, d.i, len(d.b)-d.i)
	}
	v := d.b[d.i : d.i+int(n) : d.i+int(n)]
	d.i += int(n)
	return v
}

func (d *mpDecoder) u8() uint64  { return uint64(d.take(1)[0]) }
func (d *mpDecoder) u16() uint64 { return uint64(binary.BigEndian.Uint16(d.take(2))) }
func (d *mpDecoder) u32() uint64 { return uint64(binary.BigEndian.Uint32(d.take(4))) }
func (d *mpDecoder) u64() uint64 { return binary.BigEndian.Uint64(d.take(8)) }

func (d *mpDecoder) tryNil() bool {
	if d.i < len(d.b) && d.b[d.i] == 0xc0 {
		d.i++
		return true
	}
	return false
}

// enter and leave bracket a container, bounding the nesting (MaxDepth).
func (d *mpDecoder) enter() {
	d.depth++
	if d.depth >= mpMaxDepth {
		mpFail("values nested deeper than %d at byte %d", mpMaxDepth, d.i)
	}
}

func (d *mpDecoder) leave() { d.depth-- }

func mpIsArray(c byte) bool { return c&0xf0 == 0x90 || c == 0xdc || c == 0xdd }
func mpIsMap(c byte) bool   { return c&0xf0 == 0x80 || c == 0xde || c == 0xdf }
func mpIsRaw(c byte) bool {
	return c&0xe0 == 0xa0 || c >= 0xc4 && c <= 0xc6 || c >= 0xd9 && c <= 0xdb
}

func (d *mpDecoder) arrayLen() int { return d.containerLen(0x90, 0xdc, 0xdd, "an array") }

func (d *mpDecoder) mapLen() int { return d.containerLen(0x80, 0xde, 0xdf, "a map") }

// containerLen reads an array's or a map's header: its fix form (fix, the length in the low
// nibble), or its 16- or 32-bit one.
func (d *mpDecoder) containerLen(fix, c16, c32 byte, what string) int {
	switch c := d.next(); {
	case c&0xf0 == fix:
		return int(c & 0x0f)
	case c == c16:
		return int(d.u16())
	case c == c32:
		return int(d.u32())
	default:
		d.i--
		mpFail("expected %s at byte %d, found type 0x%02x", what, d.i, c)
	}
	return 0
}

// bytesView reads str, bin, or an array of small integers (nil reads as nil). A str or bin
// is returned as a view into the input; callers copy what they keep.
func (d *mpDecoder) bytesView() []byte {
	c := d.next()
	switch {
	case c == 0xc0:
		return nil
	case c&0xe0 == 0xa0:
		return d.take(uint64(c & 0x1f))
	case c == 0xc4 || c == 0xd9:
		return d.take(d.u8())
	case c == 0xc5 || c == 0xda:
		return d.take(d.u16())
	case c == 0xc6 || c == 0xdb:
		return d.take(d.u32())
	case mpIsArray(c):
		d.i--
		n := d.arrayLen()
		if n > len(d.b)-d.i { // each element takes a byte at least
			mpFail("%d bytes claimed at byte %d past the end of input", n, d.i)
		}
		b := make([]byte, n)
		for k := range b {
			v := uint64(0)
			if !d.tryNil() {
				v = d.uint64()
			}
			b[k] = uint8(mpCheckUint(v, 8))
		}
		return b
	}
	d.i--
	mpFail("expected a string or bytes at byte %d, found type 0x%02x", d.i, c)
	return nil
}

// mpNoFrac64 reports whether the float64 with these bits is a whole number small enough to
// convert (ugorji's test: it refuses -0, infinities and NaN too).
func mpNoFrac64(bits uint64) bool {
	if bits == 0 {
		return true
	}
	exp := (bits>>52)&0x7ff - 1023
	return exp < 52 && bits<<(12+exp) == 0
}

func mpNoFrac32(bits uint32) bool {
	if bits == 0 {
		return true
	}
	exp := (bits>>23)&0xff - 127
	return exp < 23 && bits<<(9+exp) == 0
}

func (d *mpDecoder) wholeFloat(c byte) float64 {
	if c == 0xca {
		bits := uint32(d.u32())
		if !mpNoFrac32(bits) {
			mpFail("integer expected, found float %v with a fraction", math.Float32frombits(bits))
		}
		return float64(math.Float32frombits(bits))
	}
	bits := d.u64()
	if !mpNoFrac64(bits) {
		mpFail("integer expected, found float %v with a fraction", math.Float64frombits(bits))
	}
	return math.Float64frombits(bits)
}

// int64 reads any integer (a uint64 past MaxInt64 wraps, as in ugorji) or a whole float.
func (d *mpDecoder) int64() int64 {
	c := d.next()
	switch {
	case c <= 0x7f || c >= 0xe0:
		return int64(int8(c))
	case c == 0xcc:
		return int64(d.u8())
	case c == 0xcd:
		return int64(d.u16())
	case c == 0xce:
		return int64(d.u32())
	case c == 0xcf:
		return int64(d.u64())
	case c == 0xd0:
		return int64(int8(d.u8()))
	case c == 0xd1:
		return int64(int16(d.u16()))
	case c == 0xd2:
		return int64(int32(d.u32()))
	case c == 0xd3:
		return int64(d.u64())
	case c == 0xca || c == 0xcb:
		return int64(d.wholeFloat(c))
	}
	d.i--
	mpFail("expected an integer at byte %d, found type 0x%02x", d.i, c)
	return 0
}

// uint64 reads a non-negative integer or whole float.
func (d *mpDecoder) uint64() uint64 {
	c := d.next()
	var v int64
	switch {
	case c <= 0x7f:
		return uint64(c)
	case c == 0xcc:
		return d.u8()
	case c == 0xcd:
		return d.u16()
	case c == 0xce:
		return d.u32()
	case c == 0xcf:
		return d.u64()
	case c >= 0xe0:
		v = int64(int8(c))
	case c == 0xd0:
		v = int64(int8(d.u8()))
	case c == 0xd1:
		v = int64(int16(d.u16()))
	case c == 0xd2:
		v = int64(int32(d.u32()))
	case c == 0xd3:
		v = int64(d.u64())
	case c == 0xca || c == 0xcb:
		f := d.wholeFloat(c)
		if f < 0 {
			mpFail("negative value %v for an unsigned type", f)
		}
		return uint64(f)
	default:
		d.i--
		mpFail("expected an unsigned integer at byte %d, found type 0x%02x", d.i, c)
	}
	if v < 0 {
		mpFail("negative value %d for an unsigned type", v)
	}
	return uint64(v)
}

func mpCheckInt(v int64, bits uint) int64 {
	if v != 0 && v != (v<<(64-bits))>>(64-bits) {
		mpFail("value %d overflows a %d-bit integer", v, bits)
	}
	return v
}

func mpCheckUint(v uint64, bits uint) uint64 {
	if v != 0 && v != (v<<(64-bits))>>(64-bits) {
		mpFail("value %d overflows a %d-bit unsigned integer", v, bits)
	}
	return v
}

func (d *mpDecoder) float64() float64 {
	switch d.peek() {
	case 0xca:
		d.i++
		return float64(math.Float32frombits(uint32(d.u32())))
	case 0xcb:
		d.i++
		return math.Float64frombits(d.u64())
	}
	return float64(d.int64())
}

func (d *mpDecoder) float32() float32 {
	f := d.float64()
	if a := math.Abs(f); math.MaxFloat32 < a && a <= math.MaxFloat64 {
		mpFail("value %v overflows a float32", f)
	}
	return float32(f)
}

func mpDecBool(d *mpDecoder, p unsafe.Pointer) {
	switch c := d.next(); c {
	case 0xc2, 0x00:
		*(*bool)(p) = false
	case 0xc3, 0x01:
		*(*bool)(p) = true
	default:
		d.i--
		mpFail("expected a bool at byte %d, found type 0x%02x", d.i, c)
	}
}

func mpDecInt(d *mpDecoder, p unsafe.Pointer) {
	*(*int)(p) = int(mpCheckInt(d.int64(), 8*uint(unsafe.Sizeof(int(0)))))
}
func mpDecInt8(d *mpDecoder, p unsafe.Pointer)  { *(*int8)(p) = int8(mpCheckInt(d.int64(), 8)) }
func mpDecInt16(d *mpDecoder, p unsafe.Pointer) { *(*int16)(p) = int16(mpCheckInt(d.int64(), 16)) }
func mpDecInt32(d *mpDecoder, p unsafe.Pointer) { *(*int32)(p) = int32(mpCheckInt(d.int64(), 32)) }
func mpDecInt64(d *mpDecoder, p unsafe.Pointer) { *(*int64)(p) = d.int64() }
func mpDecUint(d *mpDecoder, p unsafe.Pointer) {
	*(*uint)(p) = uint(mpCheckUint(d.uint64(), 8*uint(unsafe.Sizeof(uint(0)))))
}
func mpDecUint8(d *mpDecoder, p unsafe.Pointer) { *(*uint8)(p) = uint8(mpCheckUint(d.uint64(), 8)) }
func mpDecUint16(d *mpDecoder, p unsafe.Pointer) {
	*(*uint16)(p) = uint16(mpCheckUint(d.uint64(), 16))
}
func mpDecUint32(d *mpDecoder, p unsafe.Pointer) {
	*(*uint32)(p) = uint32(mpCheckUint(d.uint64(), 32))
}
func mpDecUint64(d *mpDecoder, p unsafe.Pointer)     { *(*uint64)(p) = d.uint64() }
func mpDecFloat32(d *mpDecoder, p unsafe.Pointer)    { *(*float32)(p) = d.float32() }
func mpDecFloat64(d *mpDecoder, p unsafe.Pointer)    { *(*float64)(p) = d.float64() }
func mpDecComplex64(d *mpDecoder, p unsafe.Pointer)  { *(*complex64)(p) = complex(d.float32(), 0) }
func mpDecComplex128(d *mpDecoder, p unsafe.Pointer) { *(*complex128)(p) = complex(d.float64(), 0) }

// Decoded strings and bytes never alias the input, which the caller may reuse (ZeroCopy off).
func mpDecString(d *mpDecoder, p unsafe.Pointer) { *(*string)(p) = string(d.bytesView()) }

// bytesCopy is bytesView copied; never nil.
func (d *mpDecoder) bytesCopy() []byte {
	c := d.peek()
	v := d.bytesView()
	if mpIsArray(c) {
		return v // already a fresh slice
	}
	return append(make([]byte, 0, len(v)), v...)
}

func mpDecBytes(d *mpDecoder, p unsafe.Pointer) { *(*[]byte)(p) = d.bytesCopy() }

func mpDecSlice(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	byteElem := t.rt.Elem().Kind() == reflect.Uint8
	return func(d *mpDecoder, p unsafe.Pointer) {
		c := d.peek()
		if mpIsRaw(c) {
			if !byteElem {
				mpFail("bytes at byte %d cannot decode into %v", d.i, t.rt)
			}
			b := d.bytesCopy() // a []uint8-like type shares []byte's layout
			*(*sliceHeader)(p) = sliceHeader{data: unsafe.Pointer(unsafe.SliceData(b)), len: len(b), cap: cap(b)}
			return
		}
		if !mpIsArray(c) {
			mpFail("expected an array for %v at byte %d, found type 0x%02x", t.rt, d.i, c)
		}
		n := d.arrayLen()
		d.enter()
		dst := reflect.NewAt(t.rt, p).Elem()
		// Allocate no more than MaxInitLen elements before they have been read: the length
		// is the peer's claim.
		size := min(n, mpMaxInitLen)
		s := reflect.MakeSlice(t.rt, size, size)
		base := s.UnsafePointer()
		for j := 0; j < n; j++ {
			if j == size {
				size = min(n, 2*size)
				grown := reflect.MakeSlice(t.rt, size, size)
				reflect.Copy(grown, s)
				s, base = grown, grown.UnsafePointer()
			}
			d.field(t.elem, unsafe.Add(base, uintptr(j)*t.elem.size))
		}
		dst.Set(s)
		d.leave()
	}
}

func mpDecArray(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	n := t.rt.Len()
	byteElem := t.rt.Elem().Kind() == reflect.Uint8
	return func(d *mpDecoder, p unsafe.Pointer) {
		c := d.peek()
		if mpIsRaw(c) {
			if !byteElem {
				mpFail("bytes at byte %d cannot decode into %v", d.i, t.rt)
			}
			b := d.bytesView()
			if len(b) > n {
				mpFail("%d bytes do not fit %v", len(b), t.rt)
			}
			copy(unsafe.Slice((*byte)(p), n), b)
			return
		}
		if !mpIsArray(c) {
			mpFail("expected an array for %v at byte %d, found type 0x%02x", t.rt, d.i, c)
		}
		cnt := d.arrayLen()
		d.enter()
		if cnt > n {
			mpFail("%d elements do not fit %v", cnt, t.rt)
		}
		for j := 0; j < cnt; j++ {
			d.field(t.elem, unsafe.Add(p, uintptr(j)*t.elem.size))
		}
		d.leave()
	}
}

func mpDecMap(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, p unsafe.Pointer) {
		n := d.mapLen()
		d.enter()
		m := reflect.NewAt(t.rt, p).Elem()
		if m.IsNil() {
			m.Set(reflect.MakeMapWithSize(t.rt, min(n, mpMaxInitLen)))
		}
		for j := 0; j < n; j++ {
			k := reflect.New(t.key.rt)
			d.field(t.key, k.UnsafePointer())
			v := reflect.New(t.elem.rt)
			d.field(t.elem, v.UnsafePointer())
			m.SetMapIndex(k.Elem(), v.Elem())
		}
		d.leave()
	}
}

func mpDecPointer(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, p unsafe.Pointer) {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			q = reflect.New(t.elem.rt).UnsafePointer()
			*(*unsafe.Pointer)(p) = q
		}
		t.elem.dec(d, q)
	}
}

func mpDecFunc(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, _ unsafe.Pointer) {
		mpFail("cannot decode a value at byte %d into %v", d.i, t.rt)
	}
}

// mpDecInterface decodes schema-less (see naked) into an interface.
func mpDecInterface(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, p unsafe.Pointer) {
		at := d.i
		v := d.naked()
		if !v.IsValid() {
			return
		}
		if !v.Type().AssignableTo(t.rt) {
			mpFail("cannot decode %v at byte %d into %v", v.Type(), at, t.rt)
		}
		reflect.NewAt(t.rt, p).Elem().Set(v)
	}
}

var (
	mpAnySliceType = reflect.TypeFor[[]any]()
	mpAnyMapType   = reflect.TypeFor[map[string]any]()
)

// naked decodes a value of no declared type: maps as map[string]any (MapType), arrays as
// []any (SliceType), integers as int64 (SignedInteger), floats as float64, str and bin as
// string (RawToString), the timestamp extension as time.Time; the invalid Value for nil.
func (d *mpDecoder) naked() reflect.Value {
	c := d.peek()
	switch {
	case c == 0xc0:
		d.i++
		return reflect.Value{}
	case c == 0xc2 || c == 0xc3:
		d.i++
		return reflect.ValueOf(c == 0xc3)
	case c == 0xca || c == 0xcb:
		return reflect.ValueOf(d.float64())
	case c <= 0x7f || c >= 0xe0 || c >= 0xcc && c <= 0xd3:
		return reflect.ValueOf(d.int64())
	case mpIsRaw(c):
		return reflect.ValueOf(string(d.bytesView()))
	case mpIsArray(c):
		v := reflect.New(mpAnySliceType)
		mpTypeOf(mpAnySliceType).dec(d, v.UnsafePointer())
		return v.Elem()
	case mpIsMap(c):
		v := reflect.New(mpAnyMapType)
		mpTypeOf(mpAnyMapType).dec(d, v.UnsafePointer())
		return v.Elem()
	case c >= 0xd4 && c <= 0xd8 || c >= 0xc7 && c <= 0xc9:
		d.i++
		var n uint64
		switch c {
		case 0xc7:
			n = d.u8()
		case 0xc8:
			n = d.u16()
		case 0xc9:
			n = d.u32()
		default:
			n = 1 << (c - 0xd4)
		}
		if tag := d.u8(); tag != 0xff {
			mpFail("msgpack extension type %d at byte %d has no Go type", int8(tag), d.i)
		}
		return reflect.ValueOf(d.timePayload(n))
	}
	mpFail("type 0x%02x at byte %d is not msgpack", c, d.i)
	return reflect.Value{}
}

func mpDecStruct(t *mpType) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, p unsafe.Pointer) {
		c := d.peek()
		switch {
		case mpIsMap(c):
			n := d.mapLen()
			d.enter()
			next := 0 // the encoder writes fields in sorted order: try the next one first
			for j := 0; j < n; j++ {
				key := d.bytesView()
				var f *mpField
				if next < len(t.sorted) && t.sorted[next].name == string(key) {
					f = t.sorted[next]
				} else if f = t.byName[string(key)]; f == nil {
					d.skip() // a field this build does not know
					continue
				}
				next = f.sortIdx + 1
				d.field(f.typ, unsafe.Add(p, f.off))
			}
			d.leave()
		case mpIsArray(c):
			n := d.arrayLen()
			d.enter()
			for j := 0; j < n; j++ {
				if j < len(t.fields) {
					f := t.fields[j]
					d.field(f.typ, unsafe.Add(p, f.off))
				} else {
					d.skip()
				}
			}
			d.leave()
		default:
			mpFail("expected a map for %v at byte %d, found type 0x%02x", t.rt, d.i, c)
		}
	}
}

// mpDecTime reads a time as the timestamp extension, or its payload as str or bin.
func mpDecTime(d *mpDecoder, p unsafe.Pointer) {
	c := d.next()
	var n uint64
	switch {
	case c == 0xc4 || c == 0xd9:
		n = d.u8()
	case c == 0xc5 || c == 0xda:
		n = d.u16()
	case c == 0xc6 || c == 0xdb:
		n = d.u32()
	case c&0xe0 == 0xa0:
		n = uint64(c & 0x1f)
	case c == 0xd6 && d.u8() == 0xff:
		n = 4
	case c == 0xd7 && d.u8() == 0xff:
		n = 8
	case c == 0xc7 && d.u8() == 12 && d.u8() == 0xff:
		n = 12
	default:
		mpFail("expected a timestamp at byte %d", d.i)
	}
	*(*time.Time)(p) = d.timePayload(n)
}

func (d *mpDecoder) timePayload(n uint64) time.Time {
	switch n {
	case 4:
		return time.Unix(int64(d.u32()), 0).UTC()
	case 8:
		v := d.u64()
		return time.Unix(int64(v&0x3ffffffff), int64(v>>34)).UTC()
	case 12:
		nsec := d.u32()
		return time.Unix(int64(d.u64()), int64(nsec)).UTC()
	}
	mpFail("timestamp of %d bytes at byte %d: want 4, 8 or 12", n, d.i)
	return time.Time{}
}

func mpDecBinaryUnmarshaler(rt reflect.Type) func(*mpDecoder, unsafe.Pointer) {
	return func(d *mpDecoder, p unsafe.Pointer) {
		b := d.bytesCopy()
		if err := reflect.NewAt(rt, p).Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
			mpFail("%v.UnmarshalBinary: %v", rt, err)
		}
	}
}

// skip steps over one value of any type.
func (d *mpDecoder) skip() {
	c := d.next()
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
	case c&0xe0 == 0xa0:
		d.take(uint64(c & 0x1f))
	case c == 0xc4 || c == 0xd9:
		d.take(d.u8())
	case c == 0xc5 || c == 0xda:
		d.take(d.u16())
	case c == 0xc6 || c == 0xdb:
		d.take(d.u32())
	case c == 0xcc || c == 0xd0:
		d.take(1)
	case c == 0xcd || c == 0xd1:
		d.take(2)
	case c == 0xce || c == 0xd2 || c == 0xca:
		d.take(4)
	case c == 0xcf || c == 0xd3 || c == 0xcb:
		d.take(8)
	case c >= 0xd4 && c <= 0xd8: // fixext: a type byte and 1..16 bytes
		d.take(1 + 1<<(c-0xd4))
	case c == 0xc7:
		d.take(1 + d.u8())
	case c == 0xc8:
		d.take(1 + d.u16())
	case c == 0xc9:
		d.take(1 + d.u32())
	case mpIsArray(c) || mpIsMap(c):
		d.i--
		var n int
		if mpIsArray(c) {
			n = d.arrayLen()
		} else {
			n = 2 * d.mapLen()
		}
		d.enter()
		for j := 0; j < n; j++ {
			d.skip()
		}
		d.leave()
	default:
		d.i--
		mpFail("type 0x%02x at byte %d is not msgpack", c, d.i)
	}
}
