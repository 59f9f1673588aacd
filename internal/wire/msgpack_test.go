package wire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// The proof that Orbit's codec is ugorji's handle, byte for byte: random values of every
// registered message, of the scheduler plugin's contract and of a test struct holding every
// kind the codec handles are encoded by both (the bytes must be identical) and the bytes
// decoded by both (the values must be reflect.DeepEqual).

type mpInner struct {
	X int64     `codec:"x"`
	Y string    `codec:"y"`
	Z []mpInner `codec:"z"` // recursive
}

type mpEmbedded struct {
	E1  string   `codec:"e1"`
	Dup string   `codec:"dup"` // shadowed by mpAllKinds.Dup, which is shallower
	E2  []uint32 `codec:"e2"`
}

type mpNamedU8 uint8
type mpNamedStr string

// mpBin travels as its MarshalBinary bytes.
type mpBin struct{ v [3]byte }

func (b mpBin) MarshalBinary() ([]byte, error) { return append([]byte("bin:"), b.v[:]...), nil }
func (b *mpBin) UnmarshalBinary(p []byte) error {
	if !bytes.HasPrefix(p, []byte("bin:")) || len(p) != 7 {
		return errors.New("not an mpBin")
	}
	copy(b.v[:], p[4:])
	return nil
}

// mpAllKinds holds every kind and struct-tag feature the codec handles.
type mpAllKinds struct {
	B        bool                 `codec:"b"`
	I        int                  `codec:"i"`
	I8       int8                 `codec:"i8"`
	I16      int16                `codec:"i16"`
	I32      int32                `codec:"i32"`
	I64      int64                `codec:"i64"`
	U        uint                 `codec:"u"`
	U8       uint8                `codec:"u8"`
	U16      uint16               `codec:"u16"`
	U32      uint32               `codec:"u32"`
	U64      uint64               `codec:"u64"`
	Uptr     uintptr              `codec:"uptr"`
	F32      float32              `codec:"f32"`
	F64      float64              `codec:"f64"`
	C64      complex64            `codec:"c64"`
	S        string               `codec:"s"`
	NS       mpNamedStr           `codec:"ns"`
	Bs       []byte               `codec:"bs"`
	NamedU8s []mpNamedU8          `codec:"nu8"`
	Arr      [3]int16             `codec:"arr"`
	BArr     [4]byte              `codec:"barr"`
	Zero     [0]int               `codec:"zero"`
	P        *string              `codec:"p"`
	PP       **int32              `codec:"pp"`
	PS       *mpInner             `codec:"ps"`
	Sl       []mpInner            `codec:"sl"`
	SP       []*mpInner           `codec:"sp"`
	Strs     []string             `codec:"strs"`
	M        map[string]int64     `codec:"m"`
	MI       map[int32]string     `codec:"mi"`
	MU       map[uint16]bool      `codec:"mu"`
	MB       map[bool]string      `codec:"mb"`
	MF       map[float64]int8     `codec:"mf"`
	MS       map[string][]string  `codec:"ms"`
	MArr     map[[2]int8]string   `codec:"marr"`
	MSt      map[string]mpInner   `codec:"mst"`
	A        any                  `codec:"a"`
	As       []any                `codec:"as"`
	MA       map[string]any       `codec:"ma"`
	T        time.Time            `codec:"t"`
	TP       *time.Time           `codec:"tp"`
	Bin      mpBin                `codec:"bin"`
	Untagged int                  // named by its Go name
	JSONOnly int                  `json:"jsonname"` // json tags mean nothing
	Skip     int                  `codec:"-"`
	unexp    int                  //nolint:unused // never encoded
	Fn       func()               `codec:"fn"` // func fields are left out
	OS       string               `codec:"os,omitempty"`
	OBs      []byte               `codec:"obs,omitempty"`
	OI       int64                `codec:"oi,omitempty"`
	OSl      []string             `codec:"osl,omitempty"`
	OM       map[string]int64     `codec:"om,omitempty"`
	OP       *int                 `codec:"op,omitempty"`
	OSt      mpInner              `codec:"ost,omitempty"`
	OF       float64              `codec:"of,omitempty"`
	OA       any                  `codec:"oa,omitempty"`
	OArr     [2]int8              `codec:"oarr,omitempty"`
	OB       bool                 `codec:"ob,omitempty"`
	Deep     map[string][]mpInner `codec:"deep"`
	mpEmbedded
	Dup string `codec:"dup"`
}

// mpGen fills values of any type at random, leaning on the edges of each encoding: the
// fixint, 8-, 16- and 32-bit boundaries, strings around 31/32/255/256 bytes, nil against
// empty slices and maps, empty strings that still point into memory.
type mpGen struct {
	r     *rand.Rand
	depth int
}

var mpEdgeInts = []int64{0, 1, -1, 31, 32, -32, -33, 127, 128, -128, -129, 255, 256,
	math.MaxInt16, math.MaxInt16 + 1, math.MinInt16, math.MinInt16 - 1, math.MaxUint16, math.MaxUint16 + 1,
	math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 - 1, math.MaxUint32, math.MaxUint32 + 1,
	math.MaxInt64, math.MinInt64, 1700000000, 1700000000123456789}

func (g *mpGen) int64() int64 {
	if g.r.Intn(3) == 0 {
		return g.r.Int63() - g.r.Int63()
	}
	return mpEdgeInts[g.r.Intn(len(mpEdgeInts))]
}

func (g *mpGen) uint64() uint64 {
	switch g.r.Intn(4) {
	case 0:
		return g.r.Uint64()
	case 1:
		return math.MaxUint64
	}
	return uint64(g.int64())
}

var mpStrLens = []int{0, 1, 5, 15, 16, 31, 32, 33, 255, 256, 300, 65535, 65536}

func (g *mpGen) string() string {
	n := mpStrLens[g.r.Intn(len(mpStrLens))]
	if n >= 65535 && g.r.Intn(8) != 0 {
		n = g.r.Intn(40)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcxyz_-/é\x00"[g.r.Intn(12)]
	}
	s := string(b)
	if n == 0 && g.r.Intn(2) == 0 {
		s = strings.Repeat("q", 3)[:0] // empty, but its pointer is not nil
	}
	return s
}

func (g *mpGen) length() int {
	switch g.r.Intn(10) {
	case 0:
		return 15 + g.r.Intn(3) // across the fixarray/fixmap limit
	case 1, 2:
		return 0
	}
	return 1 + g.r.Intn(4)
}

func (g *mpGen) any() any {
	if g.depth > 3 {
		return g.int64()
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(12) {
	case 0:
		return nil
	case 1:
		return g.int64()
	case 2:
		return g.string()
	case 3:
		return g.r.NormFloat64()
	case 4:
		return g.r.Intn(2) == 0
	case 5:
		n := g.length()
		s := make([]any, n)
		for i := range s {
			s[i] = g.any()
		}
		return s
	case 6:
		m := map[string]any{}
		for i := g.length(); i > 0; i-- {
			m[g.string()] = g.any()
		}
		return m
	case 7:
		return uint8(g.uint64())
	case 8:
		return g.uint64()
	case 9:
		return []byte(g.string())
	case 10:
		return float32(g.r.NormFloat64())
	}
	return int32(g.int64())
}

func (g *mpGen) value(rt reflect.Type) reflect.Value {
	v := reflect.New(rt).Elem()
	g.fill(v)
	return v
}

func (g *mpGen) fill(v reflect.Value) {
	rt := v.Type()
	if rt == reflect.TypeFor[time.Time]() {
		if g.r.Intn(4) != 0 {
			sec := []int64{0, 1, 1700000000, 1 << 34, -5, 1<<34 - 1}[g.r.Intn(6)]
			v.Set(reflect.ValueOf(time.Unix(sec, int64(g.r.Intn(3))*int64(g.r.Intn(1e9))).UTC()))
		}
		return
	}
	if rt == reflect.TypeFor[mpBin]() {
		var b mpBin
		g.r.Read(b.v[:])
		v.Set(reflect.ValueOf(b))
		return
	}
	switch rt.Kind() {
	case reflect.Bool:
		v.SetBool(g.r.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := g.int64()
		if g.r.Intn(3) == 0 {
			x = 0
		}
		v.SetInt(x) // truncated to the kind's width, which keeps the edges of narrow kinds
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := g.uint64()
		if g.r.Intn(3) == 0 {
			x = 0
		}
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		f := []float64{0, 1, -1.5, 1e300, math.SmallestNonzeroFloat64, math.Inf(1), g.r.NormFloat64() * 1e6}[g.r.Intn(7)]
		if rt.Kind() == reflect.Float32 && math.Abs(f) > math.MaxFloat32 && !math.IsInf(f, 0) {
			f = 3.5
		}
		v.SetFloat(f)
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(complex(float64(g.r.Intn(100))-50, 0))
	case reflect.String:
		v.SetString(g.string())
	case reflect.Slice:
		switch g.r.Intn(5) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(rt, 0, g.r.Intn(2))) // empty, not nil
			return
		}
		n := g.length()
		if g.depth > 3 {
			n = min(n, 1)
		}
		g.depth++
		s := reflect.MakeSlice(rt, n, n)
		for i := 0; i < n; i++ {
			g.fill(s.Index(i))
		}
		g.depth--
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if g.r.Intn(2) == 0 {
				g.fill(v.Index(i))
			}
		}
	case reflect.Map:
		switch g.r.Intn(5) {
		case 0:
			return
		case 1:
			v.Set(reflect.MakeMap(rt))
			return
		}
		m := reflect.MakeMap(rt)
		g.depth++
		for i := g.length(); i > 0; i-- {
			k := g.value(rt.Key())
			if f, ok := k.Interface().(float64); ok && math.IsNaN(f) {
				continue
			}
			m.SetMapIndex(k, g.value(rt.Elem()))
		}
		g.depth--
		v.Set(m)
	case reflect.Pointer:
		if g.r.Intn(3) == 0 || g.depth > 4 {
			return
		}
		p := reflect.New(rt.Elem())
		g.depth++
		g.fill(p.Elem())
		g.depth--
		v.Set(p)
	case reflect.Interface:
		if a := g.any(); a != nil {
			v.Set(reflect.ValueOf(a))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := rt.Field(i)
			if !f.IsExported() && !f.Anonymous || f.Type.Kind() == reflect.Func {
				continue
			}
			if g.r.Intn(4) == 0 {
				continue // left zero: omitempty and absent fields
			}
			g.fill(v.Field(i))
		}
	}
}

// mpCase is one Go type the proof covers.
type mpCase struct {
	name   string
	rt     reflect.Type
	plugin bool // also compare with the scheduler plugin's handle
}

func mpCases() []mpCase {
	var cs []mpCase
	for _, mt := range Registered() {
		v, err := New(mt)
		if err != nil {
			panic(err)
		}
		cs = append(cs, mpCase{name: Name(mt), rt: reflect.TypeOf(v).Elem()})
	}
	for _, v := range []any{scheduler.State{}, scheduler.Delta{}, scheduler.Plan{}, scheduler.Params{}} {
		cs = append(cs, mpCase{name: "scheduler." + reflect.TypeOf(v).Name(), rt: reflect.TypeOf(v), plugin: true})
	}
	cs = append(cs, mpCase{name: "Envelope", rt: reflect.TypeFor[Envelope]()},
		mpCase{name: "mpAllKinds", rt: reflect.TypeFor[mpAllKinds]()},
		mpCase{name: "any", rt: reflect.TypeFor[any]()},
		mpCase{name: "map[string]any", rt: reflect.TypeFor[map[string]any]()})
	return cs
}

// mpCompare checks one value: identical bytes from both encoders (through Marshal's fast
// path too), then both decoders agreeing on those bytes, into the type and into an any.
func mpCompare(t *testing.T, c mpCase, v reflect.Value) {
	t.Helper()
	ptr := reflect.New(c.rt)
	ptr.Elem().Set(v)
	want, err := ugorjiMarshal(ugorjiWire, ptr.Interface())
	if err != nil {
		t.Fatalf("%s: ugorji encode: %v", c.name, err)
	}
	got, err := mpMarshal(ptr.Interface())
	if err != nil {
		t.Fatalf("%s: encode: %v", c.name, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: bytes differ from ugorji's\n got %s\nwant %s\nvalue %#v", c.name, mpShort(got), mpShort(want), v.Interface())
	}
	if viaMarshal, err := Marshal(ptr.Interface()); err != nil || !bytes.Equal(viaMarshal, want) {
		t.Fatalf("%s: Marshal: %v\n got %s\nwant %s", c.name, err, mpShort(viaMarshal), mpShort(want))
	}
	if c.plugin {
		if pb, err := ugorjiMarshal(ugorjiPlugin, ptr.Interface()); err != nil || !bytes.Equal(pb, want) {
			t.Fatalf("%s: the plugin handle writes other bytes (%v)\n got %s\nwant %s", c.name, err, mpShort(pb), mpShort(want))
		}
	}
	for i, into := range []reflect.Type{c.rt, reflect.TypeFor[any]()} {
		mine, theirs := reflect.New(into), reflect.New(into)
		err1, err2 := Unmarshal(want, mine.Interface()), ugorjiUnmarshal(want, theirs.Interface())
		if i == 0 && (err1 != nil || err2 != nil) {
			t.Fatalf("%s: decode into %v: mine %v, ugorji %v\nbytes %s", c.name, into, err1, err2, mpShort(want))
		}
		if (err1 == nil) != (err2 == nil) {
			// Schema-less, a map with other than string keys fails both (MapType is
			// map[string]any); anything else must decode alike.
			t.Fatalf("%s: decode into %v: mine %v, ugorji %v\nbytes %s", c.name, into, err1, err2, mpShort(want))
		}
		if err1 == nil && !reflect.DeepEqual(mine.Interface(), theirs.Interface()) {
			t.Fatalf("%s: decoders disagree on %s into %v:\n mine %#v\nugorji %#v", c.name, mpShort(want), into,
				mine.Elem().Interface(), theirs.Elem().Interface())
		}
	}
}

// mpShort is b in hex, cut short for a failure message.
func mpShort(b []byte) string {
	if len(b) > 256 {
		return fmt.Sprintf("%x... (%d bytes)", b[:256], len(b))
	}
	return fmt.Sprintf("%x", b)
}

// TestMsgpack_MatchesUgorji is the byte-identity proof over fixed seeds.
func TestMsgpack_MatchesUgorji(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	for _, c := range mpCases() {
		t.Run(c.name, func(t *testing.T) {
			for seed := int64(0); seed < int64(n); seed++ {
				g := &mpGen{r: rand.New(rand.NewSource(seed))}
				mpCompare(t, c, g.value(c.rt))
			}
			mpCompare(t, c, reflect.New(c.rt).Elem()) // the zero value
		})
	}
}

// FuzzMsgpack_MatchesUgorji runs the proof with seeds the fuzzer picks.
func FuzzMsgpack_MatchesUgorji(f *testing.F) {
	cases := mpCases()
	for _, s := range []int64{0, 1, 42, 1 << 40} {
		f.Add(s, uint16(0))
		f.Add(s, uint16(len(cases)-4))
	}
	f.Fuzz(func(t *testing.T, seed int64, which uint16) {
		c := cases[int(which)%len(cases)]
		g := &mpGen{r: rand.New(rand.NewSource(seed))}
		mpCompare(t, c, g.value(c.rt))
	})
}

// TestMsgpack_KnownQuirks pins ugorji behaviours the random values might miss.
func TestMsgpack_KnownQuirks(t *testing.T) {
	empty := strings.Repeat("z", 4)[:0]
	for _, v := range []any{
		&mpAllKinds{OS: empty},                      // an empty string with a pointer is written
		&mpAllKinds{OBs: []byte{}, OSl: []string{}}, // so are empty non-nil slices
		&mpAllKinds{OM: map[string]int64{}},
		&mpAllKinds{OF: math.Copysign(0, -1)}, // -0 is not all zero bytes
		&mpAllKinds{A: []byte(nil), As: []any{nil, []byte{}}},
		&mpAllKinds{MF: map[float64]int8{math.Inf(-1): 1, 0: 2, -3.5: 3}},
		&mpAllKinds{MArr: map[[2]int8]string{{1, 2}: "a", {-1, 0}: "b", {0, 0}: "c"}},
		&mpAllKinds{MB: map[bool]string{true: "t", false: "f"}},
		&mpAllKinds{T: time.Unix(1<<35, 5).UTC()},
		&mpAllKinds{T: time.Unix(-1, 0).UTC()},
		&struct {
			X map[*int]int `codec:"x"`
		}{},
	} {
		want, err := ugorjiMarshal(ugorjiWire, v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := mpMarshal(v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v: %v\n got %x\nwant %x", v, err, got, want)
		}
	}
}

// TestMsgpack_DecodeLeniency checks that inputs ugorji's encoder never writes but its
// decoder accepts decode alike.
func TestMsgpack_DecodeLeniency(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string // hex
		into func() any
	}{
		{"float without fraction into an int", "cb4014000000000000", func() any { return new(int32) }},
		{"uint form into int8", "cc7f", func() any { return new(int8) }},
		{"0 and 1 as bools", "9201" + "00", func() any { return new([]bool) }},
		{"bin into a string", "c403616263", func() any { return new(string) }},
		{"str into bytes", "a3616263", func() any { return new([]byte) }},
		{"array of ints into bytes", "93010203", func() any { return new([]byte) }},
		{"array into a struct", "920561", func() any { return new(Ping) }},
		{"nil into a struct", "c0", func() any { return new(Ping) }},
		{"str into [4]byte", "a26869", func() any { return new([4]byte) }},
		{"uint64 max into any", "cfffffffffffffffff", func() any { return new(any) }},
		{"timestamp into any", "d6ff00000001", func() any { return new(any) }},
		{"empty containers into any", "929080", func() any { return new(any) }},
		{"unknown keys skipped", "83a178c0a3736571" + "05" + "a17a92d40102c7020311aa", func() any { return new(Ping) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := mpHex(t, tc.in)
			mine, theirs := tc.into(), tc.into()
			err1, err2 := Unmarshal(in, mine), ugorjiUnmarshal(in, theirs)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("mine: %v, ugorji: %v", err1, err2)
			}
			if !reflect.DeepEqual(mine, theirs) {
				t.Fatalf("mine %#v, ugorji %#v", reflect.ValueOf(mine).Elem(), reflect.ValueOf(theirs).Elem())
			}
		})
	}
}

// TestMsgpack_DecodeErrorsAgree checks malformed and mistyped inputs both decoders refuse.
func TestMsgpack_DecodeErrorsAgree(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		into func() any
	}{
		{"overflow", "cd0100", func() any { return new(uint8) }},
		{"negative into unsigned", "ff", func() any { return new(uint32) }},
		{"fraction into int", "cb3ff8000000000000", func() any { return new(int64) }},
		{"string into int", "a131", func() any { return new(int64) }},
		{"int into string", "05", func() any { return new(string) }},
		{"bytes into []int", "c40101", func() any { return new([]int) }},
		{"too long for an array", "81a16193010203", func() any {
			return new(struct {
				A [2]int16 `codec:"a"`
			})
		}},
		{"float32 overflow", "cb7fefffffffffffff", func() any { return new(float32) }},
		{"truncated", "82a3736571", func() any { return new(Ping) }},
		{"bool from 2", "02", func() any { return new(bool) }},
		{"int key into map[string]any", "810102", func() any { return new(map[string]any) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := mpHex(t, tc.in)
			err1, err2 := Unmarshal(in, tc.into()), ugorjiUnmarshal(in, tc.into())
			if err1 == nil || err2 == nil {
				t.Fatalf("want both to fail; mine: %v, ugorji: %v", err1, err2)
			}
			if errors.Is(err1, errCodecBug) {
				t.Fatalf("a panic, not an error: %v", err1)
			}
		})
	}
}

// TestMsgpack_DepthLimitMatchesUgorji: the same nesting is accepted and refused by both.
func TestMsgpack_DepthLimitMatchesUgorji(t *testing.T) {
	for depth := mpMaxDepth - 3; depth <= mpMaxDepth+1; depth++ {
		in := append(bytes.Repeat([]byte{0x91}, depth-1), 0x90)
		var mine, theirs any
		err1, err2 := Unmarshal(in, &mine), ugorjiUnmarshal(in, &theirs)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("depth %d: mine %v, ugorji %v", depth, err1, err2)
		}
		// Skipping an unknown key's value is bounded too (ugorji recurses without limit).
		skip := append([]byte{0x81, 0xa1, 'q'}, in...)
		if err := Unmarshal(skip, new(Ping)); (err == nil) != (depth+1 < mpMaxDepth) {
			t.Fatalf("skipping depth %d: %v", depth, err)
		}
	}
}

// TestMsgpack_HugeClaimsAllocateLittle: a header claiming 2^32-1 elements, strings or bytes
// with nothing after it fails without allocating for the claim (MaxInitLen).
func TestMsgpack_HugeClaimsAllocateLittle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		into func() any
	}{
		{"ddffffffff", func() any { return new([]JobInfo) }},
		{"ddffffffffc0c0", func() any { return new([]JobInfo) }},
		{"dfffffffff", func() any { return new(map[string]any) }},
		{"dbffffffff", func() any { return new(string) }},
		{"c6ffffffff", func() any { return new([]byte) }},
		{"ddffffffff", func() any { return new([]byte) }},
		{"81a46a6f6273ddffffffff", func() any { return new(JobInfoReply) }},
	} {
		in := mpHex(t, tc.in)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := Unmarshal(in, tc.into())
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: want an error", tc.in)
		}
		// 1024 JobInfos is the most the claim may cost before the input runs out.
		limit := uint64(mpMaxInitLen)*uint64(reflect.TypeFor[JobInfo]().Size()) + 1<<20
		if got := after.TotalAlloc - before.TotalAlloc; got > limit {
			t.Fatalf("%s: allocated %d bytes for a claim (limit %d)", tc.in, got, limit)
		}
	}
}

// FuzzMsgpack_Decode feeds arbitrary bytes to the decoder: never a panic or a runaway
// allocation, only errors; whatever decodes re-encodes and decodes to the same value; and
// where ugorji decodes the registered messages too, both agree.
func FuzzMsgpack_Decode(f *testing.F) {
	types := []reflect.Type{reflect.TypeFor[JobDesc](), reflect.TypeFor[JobInfoReply](), reflect.TypeFor[Envelope](),
		reflect.TypeFor[NodeInfoReply](), reflect.TypeFor[mpAllKinds](), reflect.TypeFor[any](), reflect.TypeFor[testEcho]()}
	for i, rt := range types {
		g := &mpGen{r: rand.New(rand.NewSource(int64(i)))}
		v := g.value(rt)
		b, err := mpMarshal(v.Addr().Interface())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	for _, h := range []string{"", "c0", "ddffffffff", "dfffffffff", "dbffffffff", "c7ffff", "d6ff", "91919191", "82a178c0a17891"} {
		f.Add(mpHex(f, h))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, rt := range types {
			v := reflect.New(rt)
			err := Unmarshal(in, v.Interface())
			if errors.Is(err, errCodecBug) {
				t.Fatalf("decoding %x into %v panicked: %v", in, rt, err)
			}
			if err != nil {
				continue
			}
			again, err := Marshal(v.Interface())
			if err != nil {
				t.Fatalf("re-encoding %x decoded into %v: %v", in, rt, err)
			}
			w := reflect.New(rt)
			if err := Unmarshal(again, w.Interface()); err != nil || !sameDecoded(v.Interface(), w.Interface()) {
				t.Fatalf("%x into %v does not survive a round trip: %v", in, rt, err)
			}
			if rt == reflect.TypeFor[JobDesc]() || rt == reflect.TypeFor[JobInfoReply]() || rt == reflect.TypeFor[NodeInfoReply]() {
				theirs := reflect.New(rt)
				if ugorjiUnmarshal(in, theirs.Interface()) == nil && !sameDecoded(v.Interface(), theirs.Interface()) {
					t.Fatalf("%x into %v: decoders disagree", in, rt)
				}
			}
		}
	})
}

// sameDecoded says whether two decoded values are the same: deeply equal, or, where a NaN
// makes them unequal to themselves, encoding to the same bytes.
func sameDecoded(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ea, errA := Marshal(a)
	eb, errB := Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ea, eb)
}

func mpHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}
