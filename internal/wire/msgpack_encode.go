package wire

import (
	"bytes"
	"cmp"
	"encoding"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"time"
	"unsafe"
)

// mpEncoder appends msgpack to b.
type mpEncoder struct{ b []byte }

// mpMarshal encodes v (see msgpack.go for the rules).
func mpMarshal(v any) (b []byte, err error) {
	defer mpRecover(&err)
	e := mpEncoder{b: make([]byte, 0, 128)}
	e.top(v)
	return e.b, nil
}

func (e *mpEncoder) top(v any) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		e.b = append(e.b, 0xc0)
		return
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			e.b = append(e.b, 0xc0)
			return
		}
		mpTypeOf(rv.Type().Elem()).enc(e, rv.UnsafePointer())
		return
	}
	tmp := reflect.New(rv.Type())
	tmp.Elem().Set(rv)
	mpTypeOf(rv.Type()).enc(e, tmp.UnsafePointer())
}

// sliceHeader is a slice's representation, to walk any slice's elements by address.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

// mpAppendInt writes a signed integer: fixint where it fits, else the smallest signed form
// (a positive int past 127 is int16/32/64, never uint8).
func mpAppendInt(b []byte, v int64) []byte {
	switch {
	case v > math.MaxInt8:
		switch {
		case v <= math.MaxInt16:
			return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(v))
		case v <= math.MaxInt32:
			return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(v))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(v))
	case v >= -32:
		return append(b, byte(v))
	case v >= math.MinInt8:
		return append(b, 0xd0, byte(v))
	case v >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(v))
	case v >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(v))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(v))
}

// mpAppendLen writes a container header: fix (with fixMax elements at most, 0 for none),
// then the 8-, 16- and 32-bit forms (c8 0 for none).
func mpAppendLen(b []byte, n int, fix byte, fixMax int, c8, c16, c32 byte) []byte {
	switch {
	case n <= fixMax:
		return append(b, fix|byte(n))
	case c8 != 0 && n <= math.MaxUint8:
		return append(b, c8, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, c16), uint16(n))
	case uint64(n) <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, c32), uint32(n))
	}
	mpFail("length %d exceeds msgpack's 2^32-1", n)
	return nil
}

func mpAppendStrHeader(b []byte, n int) []byte { return mpAppendLen(b, n, 0xa0, 31, 0xd9, 0xda, 0xdb) }
func mpAppendBinHeader(b []byte, n int) []byte { return mpAppendLen(b, n, 0, -1, 0xc4, 0xc5, 0xc6) }
func mpAppendArrayHeader(b []byte, n int) []byte {
	return mpAppendLen(b, n, 0x90, 15, 0, 0xdc, 0xdd)
}
func mpAppendMapHeader(b []byte, n int) []byte { return mpAppendLen(b, n, 0x80, 15, 0, 0xde, 0xdf) }

func mpAppendStr(b []byte, s string) []byte { return append(mpAppendStrHeader(b, len(s)), s...) }

// mpAppendBytes writes a []byte: nil as nil, anything else (empty too) as bin.
func mpAppendBytes(b, v []byte) []byte {
	if v == nil {
		return append(b, 0xc0)
	}
	return append(mpAppendBinHeader(b, len(v)), v...)
}

func mpEncNil(e *mpEncoder, _ unsafe.Pointer) { e.b = append(e.b, 0xc0) }

func mpEncBool(e *mpEncoder, p unsafe.Pointer) {
	if *(*bool)(p) {
		e.b = append(e.b, 0xc3)
	} else {
		e.b = append(e.b, 0xc2)
	}
}

func mpEncInt(e *mpEncoder, p unsafe.Pointer)    { e.b = mpAppendInt(e.b, int64(*(*int)(p))) }
func mpEncInt8(e *mpEncoder, p unsafe.Pointer)   { e.b = mpAppendInt(e.b, int64(*(*int8)(p))) }
func mpEncInt16(e *mpEncoder, p unsafe.Pointer)  { e.b = mpAppendInt(e.b, int64(*(*int16)(p))) }
func mpEncInt32(e *mpEncoder, p unsafe.Pointer)  { e.b = mpAppendInt(e.b, int64(*(*int32)(p))) }
func mpEncInt64(e *mpEncoder, p unsafe.Pointer)  { e.b = mpAppendInt(e.b, *(*int64)(p)) }
func mpEncUint(e *mpEncoder, p unsafe.Pointer)   { e.b = appendUint(e.b, uint64(*(*uint)(p))) }
func mpEncUint8(e *mpEncoder, p unsafe.Pointer)  { e.b = appendUint(e.b, uint64(*(*uint8)(p))) }
func mpEncUint16(e *mpEncoder, p unsafe.Pointer) { e.b = appendUint(e.b, uint64(*(*uint16)(p))) }
func mpEncUint32(e *mpEncoder, p unsafe.Pointer) { e.b = appendUint(e.b, uint64(*(*uint32)(p))) }
func mpEncUint64(e *mpEncoder, p unsafe.Pointer) { e.b = appendUint(e.b, *(*uint64)(p)) }

func mpEncFloat32(e *mpEncoder, p unsafe.Pointer) {
	e.b = binary.BigEndian.AppendUint32(append(e.b, 0xca), math.Float32bits(*(*float32)(p)))
}

func mpEncFloat64(e *mpEncoder, p unsafe.Pointer) {
	e.b = binary.BigEndian.AppendUint64(append(e.b, 0xcb), math.Float64bits(*(*float64)(p)))
}

// A complex number travels as its real part; ugorji refuses one with an imaginary part.
func mpEncComplex64(e *mpEncoder, p unsafe.Pointer) {
	c := *(*complex64)(p)
	if imag(c) != 0 {
		mpFail("cannot encode complex number %v with an imaginary part", c)
	}
	r := real(c)
	mpEncFloat32(e, unsafe.Pointer(&r))
}

func mpEncComplex128(e *mpEncoder, p unsafe.Pointer) {
	c := *(*complex128)(p)
	if imag(c) != 0 {
		mpFail("cannot encode complex number %v with an imaginary part", c)
	}
	r := real(c)
	mpEncFloat64(e, unsafe.Pointer(&r))
}

func mpEncString(e *mpEncoder, p unsafe.Pointer) { e.b = mpAppendStr(e.b, *(*string)(p)) }

func mpEncBytes(e *mpEncoder, p unsafe.Pointer) { e.b = mpAppendBytes(e.b, *(*[]byte)(p)) }

func mpEncSlice(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	return func(e *mpEncoder, p unsafe.Pointer) {
		s := (*sliceHeader)(p)
		switch {
		case s.data == nil:
			e.b = append(e.b, 0xc0)
			return
		case s.len == 0:
			e.b = append(e.b, 0x90)
			return
		}
		e.b = mpAppendArrayHeader(e.b, s.len)
		el, size := t.elem, t.elem.size
		for i := 0; i < s.len; i++ {
			el.enc(e, unsafe.Add(s.data, uintptr(i)*size))
		}
	}
}

func mpEncArray(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	n := t.rt.Len()
	if t.rt.Elem() == mpUint8Type { // [N]byte is bin, never nil
		return func(e *mpEncoder, p unsafe.Pointer) {
			e.b = append(mpAppendBinHeader(e.b, n), unsafe.Slice((*byte)(p), n)...)
		}
	}
	return func(e *mpEncoder, p unsafe.Pointer) {
		if n == 0 {
			e.b = append(e.b, 0x90)
			return
		}
		e.b = mpAppendArrayHeader(e.b, n)
		el, size := t.elem, t.elem.size
		for i := 0; i < n; i++ {
			el.enc(e, unsafe.Add(p, uintptr(i)*size))
		}
	}
}

func mpEncPointer(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	return func(e *mpEncoder, p unsafe.Pointer) {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			e.b = append(e.b, 0xc0)
			return
		}
		t.elem.enc(e, q)
	}
}

func mpEncInterface(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	return func(e *mpEncoder, p unsafe.Pointer) {
		v := reflect.NewAt(t.rt, p).Elem()
		if v.IsNil() {
			e.b = append(e.b, 0xc0)
			return
		}
		dyn := v.Elem()
		tmp := reflect.New(dyn.Type())
		tmp.Elem().Set(dyn)
		mpTypeOf(dyn.Type()).enc(e, tmp.UnsafePointer())
	}
}

func mpEncStruct(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	return func(e *mpEncoder, p unsafe.Pointer) {
		n := len(t.sorted)
		if t.omitEmpty {
			n = 0
			for _, f := range t.sorted {
				if !f.omitEmpty || !mpIsZeroMem(unsafe.Add(p, f.off), f.typ.size) {
					n++
				}
			}
		}
		if n == 0 {
			e.b = append(e.b, 0x80)
			return
		}
		e.b = mpAppendMapHeader(e.b, n)
		for _, f := range t.sorted {
			fp := unsafe.Add(p, f.off)
			if f.omitEmpty && mpIsZeroMem(fp, f.typ.size) {
				continue
			}
			e.b = append(e.b, f.key...)
			f.typ.enc(e, fp)
		}
	}
}

// mpMapEntry is one map entry being sorted: its key as a value and in the sort's terms.
type mpMapEntry struct {
	k   reflect.Value
	u   uint64
	i   int64
	f   float64
	s   string
	t   time.Time
	enc []byte
}

// mpEncMap writes a map with its keys sorted (Canonical).
func mpEncMap(t *mpType) func(*mpEncoder, unsafe.Pointer) {
	kt, vt := t.rt.Key(), t.rt.Elem()
	return func(e *mpEncoder, p unsafe.Pointer) {
		m := reflect.NewAt(t.rt, p).Elem()
		if m.IsNil() {
			e.b = append(e.b, 0xc0)
			return
		}
		if m.Len() == 0 {
			e.b = append(e.b, 0x80)
			return
		}
		keys := m.MapKeys()
		ents := make([]mpMapEntry, len(keys))
		kTmp := reflect.New(kt)
		for i, k := range keys {
			ents[i].k = k
		}
		switch kk := kt.Kind(); {
		case kt == mpTimeType:
			for i := range ents {
				ents[i].t = ents[i].k.Interface().(time.Time)
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return a.t.Compare(b.t) })
		case kk == reflect.Bool:
			for i := range ents {
				if ents[i].k.Bool() {
					ents[i].u = 1
				}
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return cmp.Compare(a.u, b.u) })
		case kk == reflect.String:
			for i := range ents {
				ents[i].s = ents[i].k.String()
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return cmp.Compare(a.s, b.s) })
		case kk >= reflect.Uint && kk <= reflect.Uintptr:
			for i := range ents {
				ents[i].u = ents[i].k.Uint()
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return cmp.Compare(a.u, b.u) })
		case kk >= reflect.Int && kk <= reflect.Int64:
			for i := range ents {
				ents[i].i = ents[i].k.Int()
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return cmp.Compare(a.i, b.i) })
		case kk == reflect.Float32 || kk == reflect.Float64:
			for i := range ents {
				ents[i].f = ents[i].k.Float()
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return cmp.Compare(a.f, b.f) })
		default: // anything else sorts by its encoding
			var side mpEncoder
			for i := range ents {
				kTmp.Elem().Set(ents[i].k)
				side.b = side.b[:0]
				t.key.enc(&side, kTmp.UnsafePointer())
				ents[i].enc = bytes.Clone(side.b)
			}
			slices.SortFunc(ents, func(a, b mpMapEntry) int { return bytes.Compare(a.enc, b.enc) })
		}
		e.b = mpAppendMapHeader(e.b, len(ents))
		vTmp := reflect.New(vt)
		for i := range ents {
			if ents[i].enc != nil {
				e.b = append(e.b, ents[i].enc...)
			} else {
				kTmp.Elem().Set(ents[i].k)
				t.key.enc(e, kTmp.UnsafePointer())
			}
			vTmp.Elem().Set(m.MapIndex(ents[i].k))
			t.elem.enc(e, vTmp.UnsafePointer())
		}
	}
}

// mpEncTime writes msgpack's timestamp extension (type -1) in its smallest form; the zero
// time is nil.
func mpEncTime(e *mpEncoder, p unsafe.Pointer) {
	t := *(*time.Time)(p)
	if t.IsZero() {
		e.b = append(e.b, 0xc0)
		return
	}
	t = t.UTC()
	sec, nsec := t.Unix(), uint64(t.Nanosecond())
	switch data := nsec<<34 | uint64(sec); {
	case sec >= 0 && sec>>34 == 0 && data&0xffffffff00000000 == 0:
		e.b = binary.BigEndian.AppendUint32(append(e.b, 0xd6, 0xff), uint32(data))
	case sec >= 0 && sec>>34 == 0:
		e.b = binary.BigEndian.AppendUint64(append(e.b, 0xd7, 0xff), data)
	default:
		e.b = binary.BigEndian.AppendUint32(append(e.b, 0xc7, 12, 0xff), uint32(nsec))
		e.b = binary.BigEndian.AppendUint64(e.b, uint64(sec))
	}
}

func mpEncBinaryMarshaler(rt reflect.Type) func(*mpEncoder, unsafe.Pointer) {
	byValue := rt.Implements(mpBinaryMarshaler)
	return func(e *mpEncoder, p unsafe.Pointer) {
		v := reflect.NewAt(rt, p)
		if byValue {
			v = v.Elem()
		}
		b, err := v.Interface().(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			mpFail("%v.MarshalBinary: %v", rt, err)
		}
		e.b = mpAppendBytes(e.b, b)
	}
}
