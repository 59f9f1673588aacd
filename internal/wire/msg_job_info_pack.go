package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// The packed form of a job list (JobInfoReply.Packed): what squeue and scontrol ask for when
// the queue is large. Reflective decoding costs microseconds per field, which with 10,000 jobs
// of seventy fields each is most of a query's time on both ends; the packed form is written
// and read by the table-driven code below. It is msgpack: an array whose first element is
// the key table (JobInfo's codec tags, in the sender's field order) and whose other elements
// are the jobs, one map each, keyed by index into that table, with zero-valued fields left
// out (a fresh JobInfo already holds them). Naming fields once per reply keeps the list
// small (field names were two thirds of it) while a reader still finds fields by tag, so
// sender and reader may differ in the fields they know. The controller keeps each job's
// packed map until its record changes, so a query mostly copies bytes.

// packKind is how one JobInfo field is written.
type packKind uint8

const (
	packUint packKind = iota + 1 // uint16, uint32, uint64
	packInt                      // int32, int64
	packBool
	packString
	packUint32s // []uint32
)

// packField is one JobInfo field: its tag, where it sits in the struct and its Go kind.
type packField struct {
	name string
	key  []byte // the msgpack encoding of the field's index (its key in a packed map)
	off  uintptr
	kind packKind
	size uintptr // bytes of an integer field
}

// packLayout is JobInfo's packed form, derived from its struct: the fields in order, each
// tag's index among them, and the encoded key table.
type packLayout struct {
	fields   []packField
	index    map[string]int // tag → index in fields
	keyTable []byte
}

// jobInfoLayout builds the layout on first use rather than at package init: every command
// links this package and would pay for the reflection at each start, while only the
// controller and the commands that list jobs ever pack or unpack one.
var jobInfoLayout = sync.OnceValue(buildPackLayout)

func buildPackLayout() *packLayout {
	t := reflect.TypeOf(JobInfo{})
	packFields := make([]packField, 0, t.NumField())
	packIndex := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("codec")
		pf := packField{name: name, off: f.Offset, size: f.Type.Size()}
		switch f.Type.Kind() {
		case reflect.Uint16, reflect.Uint32, reflect.Uint64:
			pf.kind = packUint
		case reflect.Int32, reflect.Int64:
			pf.kind = packInt
		case reflect.Bool:
			pf.kind = packBool
		case reflect.String:
			pf.kind = packString
		case reflect.Slice:
			if f.Type.Elem().Kind() == reflect.Uint32 {
				pf.kind = packUint32s
			}
		}
		if pf.kind == 0 || name == "" {
			// A field the packed form cannot carry would silently vanish from squeue.
			panic(fmt.Sprintf("wire: JobInfo.%s (%s) has no packed form", f.Name, f.Type))
		}
		pf.key = appendUint(nil, uint64(len(packFields)))
		packIndex[name] = len(packFields)
		packFields = append(packFields, pf)
	}
	keyTable := appendArrayLen(nil, len(packFields))
	for i := range packFields {
		keyTable = appendStr(keyTable, packFields[i].name)
	}
	return &packLayout{fields: packFields, index: packIndex, keyTable: keyTable}
}

// ErrBadPacked reports a packed job list that is not what AppendJobInfo writes.
var ErrBadPacked = errors.New("wire: malformed packed job list")

// A queue's jobs repeat their strings (working directories, commands, output paths,
// accounts), so a packed list may name each once: every string field value of at least
// packRefMin bytes written out whole joins the list's string table, until it holds
// packRefMax strings, and a later field holding the same string may instead write its
// index in that table as a msgpack integer. A reader builds the same table as it reads
// (unknown fields included), so references need no table of their own on the wire. For a
// 100,000-job queue the reply the controller holds while it answers is a third smaller.
const (
	packRefMin = 8
	packRefMax = 1 << 16
)

// JobInfoPacker appends the jobs of one packed list, writing repeated strings as
// references; only for a client that asked for them (JobInfoRequest.PackedRefs). Its zero
// value is ready to use; use one per list.
type JobInfoPacker struct {
	refs map[string]uint32
}

// Append appends j's packed encoding to b, the list's header and earlier jobs.
func (p *JobInfoPacker) Append(b []byte, j *JobInfo) []byte {
	if p.refs == nil {
		p.refs = map[string]uint32{}
	}
	return appendJobInfo(b, j, p.refs)
}

// AppendJobInfo appends j's packed encoding (one msgpack map) to b, every string whole.
func AppendJobInfo(b []byte, j *JobInfo) []byte { return appendJobInfo(b, j, nil) }

// appendJobInfo appends j's packed encoding; with refs (the list's string table so far) it
// writes a repeated string as its index and adds new long ones to the table.
func appendJobInfo(b []byte, j *JobInfo, refs map[string]uint32) []byte {
	base := unsafe.Pointer(j)
	// A map16 header whatever the count (legal msgpack), patched once the fields are
	// written, so the struct is walked once.
	at := len(b)
	b = append(b, 0xde, 0, 0)
	n := 0
	packFields := jobInfoLayout().fields
	for i := range packFields {
		f := &packFields[i]
		if packZero(base, f) {
			continue
		}
		n++
		b = append(b, f.key...)
		p := unsafe.Add(base, f.off)
		switch f.kind {
		case packUint:
			b = appendUint(b, loadUint(p, f.size))
		case packInt:
			b = appendInt(b, loadInt(p, f.size))
		case packBool:
			b = append(b, 0xc3) // only true is written
		case packString:
			s := *(*string)(p)
			if refs != nil && len(s) >= packRefMin {
				if k, ok := refs[s]; ok {
					b = appendUint(b, uint64(k))
					continue
				}
				if len(refs) < packRefMax {
					refs[s] = uint32(len(refs))
				}
			}
			b = appendStr(b, s)
		case packUint32s:
			s := *(*[]uint32)(p)
			b = appendArrayLen(b, len(s))
			for _, v := range s {
				b = appendUint(b, uint64(v))
			}
		}
	}
	binary.BigEndian.PutUint16(b[at+1:], uint16(n)) // JobInfo has far fewer than 65536 fields
	return b
}

// AppendJobInfoListHeader starts a packed list of n jobs (the array header and the key
// table); append each job with AppendJobInfo.
func AppendJobInfoListHeader(b []byte, n int) []byte {
	b = append(appendArrayLen(b, n+1), jobInfoLayout().keyTable...)
	return b
}

// UnpackJobInfos decodes a packed job list. Strings share one copy of b, so decoding
// allocates little beyond the slice of jobs.
func UnpackJobInfos(b []byte) ([]JobInfo, error) {
	var jobs []JobInfo
	err := eachJobInfo(string(b), func(n int) { jobs = make([]JobInfo, 0, n) }, func(j *JobInfo) bool {
		jobs = append(jobs, *j)
		return true
	})
	if err != nil {
		return nil, err
	}
	return jobs, nil
}

// EachJobInfo calls fn with each job of a packed list in turn, until fn returns false, without
// building the list: a command that shows a few of many jobs, or prints each as it goes,
// then never holds all of them. The *JobInfo is reused for the next job; its strings (and
// CPUsPerNode) stay valid, pointing into b, which must not be modified afterwards. An error
// may come after fn has seen the jobs before the malformed one.
func EachJobInfo(b []byte, fn func(*JobInfo) bool) error {
	return eachJobInfo(unsafe.String(unsafe.SliceData(b), len(b)), nil, fn)
}

// EachJob calls fn with each job of the reply, packed or not, until fn returns false; see
// EachJobInfo for how long what fn sees stays valid. Packed must not be modified afterwards.
func (r *JobInfoReply) EachJob(fn func(*JobInfo) bool) error {
	return r.EachJobSized(nil, fn)
}

// EachJobSized is EachJob that first tells size (unless nil) how many jobs the reply holds,
// so that a caller can size at once what it keeps of them instead of growing it by copies.
func (r *JobInfoReply) EachJobSized(size func(n int), fn func(*JobInfo) bool) error {
	if r.Packed == nil {
		if size != nil {
			size(len(r.Jobs))
		}
		for i := range r.Jobs {
			if !fn(&r.Jobs[i]) {
				break
			}
		}
		return nil
	}
	return eachJobInfo(unsafe.String(unsafe.SliceData(r.Packed), len(r.Packed)), size, fn)
}

// unpackOwned is UnpackJobInfos for a list nothing will modify: strings point into b.
func unpackOwned(b []byte) ([]JobInfo, error) {
	var jobs []JobInfo
	err := eachJobInfo(unsafe.String(unsafe.SliceData(b), len(b)), func(n int) { jobs = make([]JobInfo, 0, n) },
		func(j *JobInfo) bool { jobs = append(jobs, *j); return true })
	if err != nil {
		return nil, err
	}
	return jobs, nil
}

// eachJobInfo decodes the packed list all, calling size with the number of jobs first.
func eachJobInfo(all string, size func(int), fn func(*JobInfo) bool) error {
	r := packReader{s: all}
	n, err := r.arrayLen()
	if err != nil {
		return err
	}
	// Each element takes at least one byte, so a claimed length beyond the input is a lie
	// that must not allocate.
	if n < 1 || n > len(all) {
		return fmt.Errorf("%w: %d elements claimed in %d bytes", ErrBadPacked, n, len(all))
	}
	nk, err := r.arrayLen()
	if err != nil {
		return err
	}
	if nk > len(all) {
		return fmt.Errorf("%w: %d keys claimed in %d bytes", ErrBadPacked, nk, len(all))
	}
	r.layout = jobInfoLayout()
	r.fields = make([]int, nk) // sender's key → index in layout.fields, -1 when unknown here
	for k := range r.fields {
		name, err := r.str()
		if err != nil {
			return err
		}
		idx, ok := r.layout.index[name]
		if !ok {
			idx = -1
		}
		r.fields[k] = idx
	}
	if size != nil {
		size(n - 1)
	}
	var j JobInfo
	for i := 0; i < n-1; i++ {
		j = JobInfo{}
		if err := r.jobInfo(&j); err != nil {
			return fmt.Errorf("%w (job %d)", err, i)
		}
		if !fn(&j) {
			return nil
		}
	}
	if r.i != len(all) {
		return fmt.Errorf("%w: %d trailing bytes", ErrBadPacked, len(all)-r.i)
	}
	return nil
}

func packZero(base unsafe.Pointer, f *packField) bool {
	p := unsafe.Add(base, f.off)
	switch f.kind {
	case packUint:
		return loadUint(p, f.size) == 0
	case packInt:
		return loadInt(p, f.size) == 0
	case packBool:
		return !*(*bool)(p)
	case packString:
		return len(*(*string)(p)) == 0
	case packUint32s:
		return *(*[]uint32)(p) == nil
	}
	return true
}

func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func loadInt(p unsafe.Pointer, size uintptr) int64 {
	if size == 4 {
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func appendArrayLen(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x90|byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xdc), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(n))
}

func appendStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= math.MaxUint8:
		b = append(b, 0xd9, byte(n))
	case n <= math.MaxUint16:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func appendUint(b []byte, v uint64) []byte {
	switch {
	case v < 128:
		return append(b, byte(v))
	case v <= math.MaxUint8:
		return append(b, 0xcc, byte(v))
	case v <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(v))
	case v <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(v))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xcf), v)
}

func appendInt(b []byte, v int64) []byte {
	switch {
	case v >= 0:
		return appendUint(b, uint64(v))
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

// packReader reads the msgpack subset of a packed job list from s.
type packReader struct {
	s      string
	i      int
	layout *packLayout
	fields []int    // the reply's key table resolved to layout.fields indexes
	table  []string // the list's strings so far that later fields may refer to
}

// strField reads a string field's value: a string, which joins the table when long enough,
// or a reference to one read before.
func (r *packReader) strField() (string, error) {
	if r.i < len(r.s) {
		if c := r.s[r.i]; c < 0x80 || (c >= 0xcc && c <= 0xcf) {
			k, err := r.int()
			if err != nil {
				return "", err
			}
			if k >= uint64(len(r.table)) {
				return "", r.errf("string reference %d outside the %d strings read", k, len(r.table))
			}
			return r.table[k], nil
		}
	}
	s, err := r.str()
	if err == nil && len(s) >= packRefMin && len(r.table) < packRefMax {
		r.table = append(r.table, s)
	}
	return s, err
}

// maxSkipDepth bounds nested values skipped under an unknown key.
const maxSkipDepth = 32

func (r *packReader) errf(format string, args ...any) error {
	return fmt.Errorf("%w at byte %d: %s", ErrBadPacked, r.i, fmt.Sprintf(format, args...))
}

func (r *packReader) byte() (byte, error) {
	if r.i >= len(r.s) {
		return 0, r.errf("unexpected end")
	}
	c := r.s[r.i]
	r.i++
	return c, nil
}

// take returns the next n bytes.
func (r *packReader) take(n int) (string, error) {
	if n < 0 || n > len(r.s)-r.i {
		return "", r.errf("length %d past the end", n)
	}
	s := r.s[r.i : r.i+n]
	r.i += n
	return s, nil
}

// be reads an n-byte big-endian unsigned integer.
func (r *packReader) be(n int) (uint64, error) {
	s, err := r.take(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	for k := 0; k < n; k++ {
		v = v<<8 | uint64(s[k])
	}
	return v, nil
}

func (r *packReader) containerLen(fix, fixMask, c16, c32 byte) (int, error) {
	c, err := r.byte()
	if err != nil {
		return 0, err
	}
	var n uint64
	switch {
	case c&^fixMask == fix:
		n = uint64(c & fixMask)
	case c == c16:
		n, err = r.be(2)
	case c == c32:
		n, err = r.be(4)
	case c == 0xc0:
		return 0, nil // nil: an empty container
	default:
		return 0, r.errf("type 0x%02x is not the container expected", c)
	}
	if err != nil {
		return 0, err
	}
	return int(n), nil
}

// isStrType says whether c starts a msgpack string (or bin), as packReader.str reads them.
func isStrType(c byte) bool {
	return c&0xe0 == 0xa0 || (c >= 0xd9 && c <= 0xdb) || (c >= 0xc4 && c <= 0xc6)
}

func (r *packReader) arrayLen() (int, error) { return r.containerLen(0x90, 0x0f, 0xdc, 0xdd) }
func (r *packReader) mapLen() (int, error)   { return r.containerLen(0x80, 0x0f, 0xde, 0xdf) }

// str reads a string (or bin) value.
func (r *packReader) str() (string, error) {
	c, err := r.byte()
	if err != nil {
		return "", err
	}
	var n uint64
	switch {
	case c&0xe0 == 0xa0:
		n = uint64(c & 0x1f)
	case c == 0xd9 || c == 0xc4:
		n, err = r.be(1)
	case c == 0xda || c == 0xc5:
		n, err = r.be(2)
	case c == 0xdb || c == 0xc6:
		n, err = r.be(4)
	case c == 0xc0:
		return "", nil
	default:
		return "", r.errf("type 0x%02x is not a string", c)
	}
	if err != nil {
		return "", err
	}
	return r.take(int(n))
}

// int reads any msgpack integer as a two's-complement 64-bit value.
func (r *packReader) int() (uint64, error) {
	c, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch {
	case c < 0x80:
		return uint64(c), nil
	case c >= 0xe0:
		return uint64(int64(int8(c))), nil
	case c >= 0xcc && c <= 0xcf:
		return r.be(1 << (c - 0xcc))
	case c >= 0xd0 && c <= 0xd3:
		n := 1 << (c - 0xd0)
		v, err := r.be(n)
		if err != nil {
			return 0, err
		}
		shift := 64 - 8*n
		return uint64(int64(v<<shift) >> shift), nil // sign-extend
	case c == 0xc0:
		return 0, nil
	}
	return 0, r.errf("type 0x%02x is not an integer", c)
}

func (r *packReader) bool() (bool, error) {
	c, err := r.byte()
	if err != nil {
		return false, err
	}
	switch c {
	case 0xc3:
		return true, nil
	case 0xc2, 0xc0:
		return false, nil
	}
	return false, r.errf("type 0x%02x is not a bool", c)
}

// skip steps over one value of any type (a key this build does not know).
func (r *packReader) skip(depth int) error {
	if depth > maxSkipDepth {
		return r.errf("nested too deep")
	}
	c, err := r.byte()
	if err != nil {
		return err
	}
	var n uint64
	switch {
	case c < 0x80 || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
		return nil
	case c&0xe0 == 0xa0:
		_, err = r.take(int(c & 0x1f))
		return err
	case c&0xf0 == 0x90 || c == 0xdc || c == 0xdd || c&0xf0 == 0x80 || c == 0xde || c == 0xdf:
		r.i--
		pairs := c&0xf0 == 0x80 || c == 0xde || c == 0xdf
		var cnt int
		if pairs {
			cnt, err = r.mapLen()
			cnt *= 2
		} else {
			cnt, err = r.arrayLen()
		}
		if err != nil {
			return err
		}
		if cnt < 0 || cnt > len(r.s)-r.i {
			return r.errf("container of %d values past the end", cnt)
		}
		for k := 0; k < cnt; k++ {
			if err := r.skip(depth + 1); err != nil {
				return err
			}
		}
		return nil
	case c >= 0xcc && c <= 0xcf:
		_, err = r.take(1 << (c - 0xcc))
	case c >= 0xd0 && c <= 0xd3:
		_, err = r.take(1 << (c - 0xd0))
	case c == 0xca:
		_, err = r.take(4)
	case c == 0xcb:
		_, err = r.take(8)
	case c >= 0xd4 && c <= 0xd8: // fixext 1..16
		_, err = r.take(1 + 1<<(c-0xd4))
	case c == 0xc4 || c == 0xd9:
		n, err = r.be(1)
		if err == nil {
			_, err = r.take(int(n))
		}
	case c == 0xc5 || c == 0xda:
		n, err = r.be(2)
		if err == nil {
			_, err = r.take(int(n))
		}
	case c == 0xc6 || c == 0xdb:
		n, err = r.be(4)
		if err == nil {
			_, err = r.take(int(n))
		}
	case c >= 0xc7 && c <= 0xc9: // ext 8/16/32
		n, err = r.be(1 << (c - 0xc7))
		if err == nil {
			_, err = r.take(int(n) + 1)
		}
	default:
		return r.errf("type 0x%02x is not msgpack", c)
	}
	return err
}

// jobInfo decodes one packed map into j (a zero value).
func (r *packReader) jobInfo(j *JobInfo) error {
	n, err := r.mapLen()
	if err != nil {
		return err
	}
	base := unsafe.Pointer(j)
	for k := 0; k < n; k++ {
		key, err := r.int()
		if err != nil {
			return err
		}
		if key >= uint64(len(r.fields)) {
			return r.errf("key %d outside the key table", key)
		}
		idx := r.fields[key]
		if idx < 0 {
			// A field this build does not know: a string in it still joins the table.
			if r.i < len(r.s) && isStrType(r.s[r.i]) {
				if _, err := r.strField(); err != nil {
					return err
				}
			} else if err := r.skip(0); err != nil {
				return err
			}
			continue
		}
		f := &r.layout.fields[idx]
		p := unsafe.Add(base, f.off)
		switch f.kind {
		case packUint, packInt:
			v, err := r.int()
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			switch f.size {
			case 2:
				*(*uint16)(p) = uint16(v)
			case 4:
				*(*uint32)(p) = uint32(v)
			default:
				*(*uint64)(p) = v
			}
		case packBool:
			v, err := r.bool()
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			*(*bool)(p) = v
		case packString:
			v, err := r.strField()
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			*(*string)(p) = v
		case packUint32s:
			cnt, err := r.arrayLen()
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			if cnt > len(r.s)-r.i {
				return r.errf("%s: %d values past the end", f.name, cnt)
			}
			s := make([]uint32, cnt)
			for e := range s {
				v, err := r.int()
				if err != nil {
					return fmt.Errorf("%s: %w", f.name, err)
				}
				s[e] = uint32(v)
			}
			*(*[]uint32)(p) = s
		}
	}
	return nil
}
