package wire

import (
	"encoding"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// mpType is how values of one Go type are encoded and decoded, worked out from its
// reflect.Type on first use and cached: nothing is built at package init, so a command
// pays only for the types it sends.
type mpType struct {
	rt   reflect.Type
	size uintptr
	// enc appends the value at p; dec decodes a non-nil value into p (callers handle nil).
	enc func(e *mpEncoder, p unsafe.Pointer)
	dec func(d *mpDecoder, p unsafe.Pointer)

	elem *mpType // slice, array, pointer and map element
	key  *mpType // map key

	// Structs.
	fields    []*mpField          // in declaration order (a struct decoded from an array)
	sorted    []*mpField          // by name: the order they are written in
	byName    map[string]*mpField // for keys out of the expected order
	omitEmpty bool                // some field is ,omitempty: count before the map header

	bad string // why the type cannot travel; reported when a value of it is met
}

// mpField is one encoded struct field.
type mpField struct {
	name      string
	key       []byte  // the name as a msgpack string
	off       uintptr // from the start of the outermost struct (embedded ones flattened)
	typ       *mpType
	omitEmpty bool
	depth     int // embedding depth, to resolve duplicate names
	sortIdx   int // index in sorted
}

var mpTypes struct {
	sync.Mutex
	m sync.Map // reflect.Type → *mpType, complete ones only
}

// mpTypeOf returns rt's codec, building it (and the types it holds) on first use.
func mpTypeOf(rt reflect.Type) *mpType {
	if t, ok := mpTypes.m.Load(rt); ok {
		return t.(*mpType)
	}
	mpTypes.Lock()
	defer mpTypes.Unlock()
	building := map[reflect.Type]*mpType{}
	t := mpBuild(rt, building)
	// Publish only once every type reachable from rt is filled in: another goroutine must
	// never see a half-built one.
	for brt, bt := range building {
		mpTypes.m.Store(brt, bt)
	}
	return t
}

var (
	mpTimeType        = reflect.TypeFor[time.Time]()
	mpUint8Type       = reflect.TypeFor[uint8]()
	mpBinaryMarshaler = reflect.TypeFor[encoding.BinaryMarshaler]()
	mpBinaryUnmarsh   = reflect.TypeFor[encoding.BinaryUnmarshaler]()
)

// mpBuild fills in rt's codec; building holds those under construction (recursive types
// refer to themselves through them). Called with mpTypes locked.
func mpBuild(rt reflect.Type, building map[reflect.Type]*mpType) *mpType {
	if t, ok := mpTypes.m.Load(rt); ok {
		return t.(*mpType)
	}
	if t, ok := building[rt]; ok {
		return t
	}
	t := &mpType{rt: rt, size: rt.Size()}
	building[rt] = t
	pt := reflect.PointerTo(rt)
	indirect := rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Interface
	switch {
	case rt == mpTimeType:
		t.enc, t.dec = mpEncTime, mpDecTime
		return t
	case !indirect && (rt.Implements(mpBinaryMarshaler) || pt.Implements(mpBinaryMarshaler)) &&
		(rt.Implements(mpBinaryUnmarsh) || pt.Implements(mpBinaryUnmarsh)):
		// ugorji prefers these methods to the type's kind, when both directions exist.
		t.enc, t.dec = mpEncBinaryMarshaler(rt), mpDecBinaryUnmarshaler(rt)
		return t
	}
	switch rt.Kind() {
	case reflect.Bool:
		t.enc, t.dec = mpEncBool, mpDecBool
	case reflect.Int:
		t.enc, t.dec = mpEncInt, mpDecInt
	case reflect.Int8:
		t.enc, t.dec = mpEncInt8, mpDecInt8
	case reflect.Int16:
		t.enc, t.dec = mpEncInt16, mpDecInt16
	case reflect.Int32:
		t.enc, t.dec = mpEncInt32, mpDecInt32
	case reflect.Int64:
		t.enc, t.dec = mpEncInt64, mpDecInt64
	case reflect.Uint, reflect.Uintptr:
		t.enc, t.dec = mpEncUint, mpDecUint
	case reflect.Uint8:
		t.enc, t.dec = mpEncUint8, mpDecUint8
	case reflect.Uint16:
		t.enc, t.dec = mpEncUint16, mpDecUint16
	case reflect.Uint32:
		t.enc, t.dec = mpEncUint32, mpDecUint32
	case reflect.Uint64:
		t.enc, t.dec = mpEncUint64, mpDecUint64
	case reflect.Float32:
		t.enc, t.dec = mpEncFloat32, mpDecFloat32
	case reflect.Float64:
		t.enc, t.dec = mpEncFloat64, mpDecFloat64
	case reflect.Complex64:
		t.enc, t.dec = mpEncComplex64, mpDecComplex64
	case reflect.Complex128:
		t.enc, t.dec = mpEncComplex128, mpDecComplex128
	case reflect.String:
		t.enc, t.dec = mpEncString, mpDecString
	case reflect.Slice:
		t.elem = mpBuild(rt.Elem(), building)
		if rt.Elem() == mpUint8Type {
			t.enc, t.dec = mpEncBytes, mpDecBytes
		} else {
			t.enc, t.dec = mpEncSlice(t), mpDecSlice(t)
		}
	case reflect.Array:
		t.elem = mpBuild(rt.Elem(), building)
		t.enc, t.dec = mpEncArray(t), mpDecArray(t)
	case reflect.Map:
		t.key = mpBuild(rt.Key(), building)
		t.elem = mpBuild(rt.Elem(), building)
		t.enc, t.dec = mpEncMap(t), mpDecMap(t)
	case reflect.Pointer:
		t.elem = mpBuild(rt.Elem(), building)
		t.enc, t.dec = mpEncPointer(t), mpDecPointer(t)
	case reflect.Interface:
		t.enc, t.dec = mpEncInterface(t), mpDecInterface(t)
	case reflect.Func:
		// ugorji writes a func as nil (struct fields of func type are left out).
		t.enc, t.dec = mpEncNil, mpDecFunc(t)
	case reflect.Struct:
		mpBuildStruct(t, building)
	default: // chan, unsafe.Pointer
		t.bad = "cannot carry a " + rt.Kind().String()
	}
	if t.bad != "" {
		t.enc = func(*mpEncoder, unsafe.Pointer) { mpFail("type %v %s", rt, t.bad) }
		t.dec = func(*mpDecoder, unsafe.Pointer) { mpFail("type %v %s", rt, t.bad) }
	}
	return t
}

// mpBuildStruct collects rt's fields as ugorji's TypeInfos with the codec tag does.
func mpBuildStruct(t *mpType, building map[reflect.Type]*mpType) {
	defaultOmit := false
	if f, ok := t.rt.FieldByName("_struct"); ok {
		// ugorji's per-struct options live on a field named _struct.
		for _, opt := range strings.Split(f.Tag.Get("codec"), ",")[1:] {
			switch opt {
			case "omitempty":
				defaultOmit = true
			case "toarray", "int", "uint", "float":
				t.bad = "asks for _struct option " + opt + ", which Orbit's codec does not write"
				return
			}
		}
	}
	var fields []*mpField
	if !mpCollectFields(t, t.rt, 0, 0, defaultOmit, building, &fields, map[reflect.Type]bool{t.rt: true}) {
		return
	}
	// Resolve duplicate names: a shallower field wins, otherwise the first one.
	idx := map[string]int{}
	keep := make([]bool, len(fields))
	for i, f := range fields {
		j, dup := idx[f.name]
		if !dup {
			idx[f.name], keep[i] = i, true
			continue
		}
		if f.depth < fields[j].depth {
			keep[j], keep[i], idx[f.name] = false, true, i
		}
	}
	t.byName = make(map[string]*mpField, len(fields))
	for i, f := range fields {
		if !keep[i] {
			continue
		}
		f.key = mpAppendStr(nil, f.name)
		t.fields = append(t.fields, f)
		t.byName[f.name] = f
		t.omitEmpty = t.omitEmpty || f.omitEmpty
	}
	t.sorted = append([]*mpField(nil), t.fields...)
	sort.Slice(t.sorted, func(i, j int) bool { return t.sorted[i].name < t.sorted[j].name })
	for i, f := range t.sorted {
		f.sortIdx = i
	}
	t.enc, t.dec = mpEncStruct(t), mpDecStruct(t)
}

// mpCollectFields appends st's encoded fields (at offset base, embedding depth depth) to out;
// false when the type cannot travel (t.bad says why).
func mpCollectFields(t *mpType, st reflect.Type, base uintptr, depth int, defaultOmit bool,
	building map[reflect.Type]*mpType, out *[]*mpField, embedding map[reflect.Type]bool) bool {
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		switch f.Type.Kind() {
		case reflect.Func, reflect.UnsafePointer:
			continue
		}
		unexported := !f.IsExported()
		if unexported && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("codec")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && f.Type.Kind() != reflect.Interface {
			ft := f.Type
			isPtr := ft.Kind() == reflect.Pointer
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			isStruct := ft.Kind() == reflect.Struct
			if unexported && (!isStruct || isPtr) {
				continue
			}
			if name == "" && isStruct {
				if isPtr {
					t.bad = "embeds *" + ft.String() + ", which Orbit's codec does not flatten"
					return false
				}
				if embedding[ft] {
					continue
				}
				embedding[ft] = true
				ok := mpCollectFields(t, ft, base+f.Offset, depth+1, defaultOmit, building, out, embedding)
				delete(embedding, ft)
				if !ok {
					return false
				}
				continue
			}
		}
		if unexported || f.Name == "_struct" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := defaultOmit
		for _, o := range strings.Split(opts, ",") {
			if o == "omitempty" {
				omit = true
			}
		}
		*out = append(*out, &mpField{name: name, off: base + f.Offset, typ: mpBuild(f.Type, building),
			omitEmpty: omit, depth: depth})
	}
	return true
}

// mpIsZeroMem reports whether the n bytes at p are all zero: ugorji's omitempty test.
func mpIsZeroMem(p unsafe.Pointer, n uintptr) bool {
	b := unsafe.Slice((*byte)(p), n)
	for len(b) >= 8 && uintptr(unsafe.Pointer(&b[0]))%8 == 0 {
		if *(*uint64)(unsafe.Pointer(&b[0])) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
