package ctld

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unique"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Job descriptions are kept packed in memory.
//
// A job's description (wire.JobDesc) is about 900 bytes of fields, most of them empty or
// "not given" for any one job, and it was most of what a pending job cost once its script
// and environment went to the store (job_record_script.go): 90 MB for a queue of 100,000
// jobs. Sharing equal descriptions does not help a real queue, where names, directories,
// output paths and limits differ from job to job. A packedDesc keeps only the fields that
// are set: their indices and numbers as varints in one byte string, shared between jobs
// (unique) since a queue holds few distinct ones, and their strings (shared through
// internDesc) in one string slice. A typical sbatch job's description costs about 200
// bytes. Readers get a fresh wire.JobDesc (jobRecord.Desc), or one field without unpacking
// the rest (descStr, descUint, descInt, descFlag) where a pass over every job reads one.
//
// A packedDesc is immutable, like the record holding it: clones share it, and a change
// packs a new one (jobRecord.setDesc). The store keeps the description as before, the whole
// wire.JobDesc under the record's "desc" key (storedJob, jobRecord.encode, decodeJob).

// packedDesc is a wire.JobDesc without its zero fields. code holds, for each set field in
// declaration order, the field's index and then: nothing for a string (its value is the
// next entry of strs) or a true bool; a uvarint count for a []string (whose elements follow
// in strs); a uvarint or, for signed fields, a varint for a number.
type packedDesc struct {
	code string // shared: jobs submitted alike set the same fields to the same numbers
	strs []string
}

// descKinds are the kinds of wire.JobDesc's fields, by index.
var descKinds = func() []reflect.Kind {
	rt := reflect.TypeFor[wire.JobDesc]()
	if rt.NumField() > 255 {
		panic("ctld: wire.JobDesc has too many fields for packedDesc")
	}
	kinds := make([]reflect.Kind, rt.NumField())
	for i := range kinds {
		f := rt.Field(i)
		switch k := f.Type.Kind(); k {
		case reflect.String, reflect.Bool, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			kinds[i] = k
		case reflect.Slice:
			if f.Type.Elem().Kind() != reflect.String {
				panic("ctld: packedDesc cannot hold wire.JobDesc." + f.Name)
			}
			kinds[i] = k
		default:
			panic("ctld: packedDesc cannot hold wire.JobDesc." + f.Name)
		}
	}
	return kinds
}()

// descField is the index of wire.JobDesc's field name, for descStr and descInt.
func descField(name string) int {
	f, ok := reflect.TypeFor[wire.JobDesc]().FieldByName(name)
	if !ok || len(f.Index) != 1 {
		panic("ctld: no wire.JobDesc." + name)
	}
	return f.Index[0]
}

// Fields read on their own (descStr, descUint, descInt, descFlag): by passes over every
// job, or where one field is all a caller needs.
var (
	descAccount       = descField("Account")
	descArraySpec     = descField("ArraySpec")
	descConstraint    = descField("Constraint")
	descBatchFeatures = descField("BatchFeatures")
	descCPUsPerTask   = descField("CPUsPerTask")
	descNumTasks      = descField("NumTasks")
	descNTasksPerNode = descField("NTasksPerNode")
	descDeadline      = descField("Deadline")
	descDependency    = descField("Dependency")
	descExcNodes      = descField("ExcNodes")
	descGres          = descField("Gres")
	descKillInvalid   = descField("KillInvalid")
	descLicenses      = descField("Licenses")
	descLicensesEmpty = descField("LicensesEmpty")
	descMailType      = descField("MailType")
	descMailUser      = descField("MailUser")
	descMemPerCPU     = descField("MemPerCPU")
	descMemPerNode    = descField("MemPerNode")
	descMinCPUs       = descField("MinCPUs")
	descName          = descField("Name")
	descNice          = descField("Nice")
	descNoKill        = descField("NoKill")
	descOvercommit    = descField("Overcommit")
	descPartition     = descField("Partition")
	descQOS           = descField("QOS")
	descReqNodes      = descField("ReqNodes")
	descRequeue       = descField("Requeue")
	descReservation   = descField("Reservation")
	descScript        = descField("Script")
	descShared        = descField("Shared")
	descSignalNumber  = descField("SignalNumber")
	descSubmitHost    = descField("SubmitHost")
	descTimeLimit     = descField("TimeLimit")
	descTimeMin       = descField("TimeMin")
	descTmpDisk       = descField("TmpDiskMB")
	descContiguous    = descField("Contiguous")
	descUseMinNodes   = descField("UseMinNodes")
	descWCKey         = descField("WCKey")
	descWorkDir       = descField("WorkDir")
)

// packDesc packs d.
func packDesc(d *wire.JobDesc) packedDesc {
	var codeBuf [256]byte
	var strBuf [64]string
	code, strs := codeBuf[:0], strBuf[:0]
	v := reflect.ValueOf(d).Elem()
	for i, k := range descKinds {
		f := v.Field(i)
		switch k {
		case reflect.String:
			if s := f.String(); s != "" {
				code = append(code, byte(i))
				strs = append(strs, s)
			}
		case reflect.Slice:
			if !f.IsNil() {
				code = binary.AppendUvarint(append(code, byte(i)), uint64(f.Len()))
				strs = append(strs, f.Interface().([]string)...)
			}
		case reflect.Bool:
			if f.Bool() {
				code = append(code, byte(i))
			}
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if n := f.Int(); n != 0 {
				code = binary.AppendVarint(append(code, byte(i)), n)
			}
		default:
			if n := f.Uint(); n != 0 {
				code = binary.AppendUvarint(append(code, byte(i)), n)
			}
		}
	}
	// Exactly sized: they are kept for the job's life.
	p := packedDesc{code: unique.Make(string(code)).Value()}
	if len(strs) > 0 {
		p.strs = slices.Clone(strs)
	}
	return p
}

// unpack returns the description p holds, a fresh value the caller owns.
func (p *packedDesc) unpack() *wire.JobDesc {
	d := new(wire.JobDesc)
	p.unpackInto(d)
	return d
}

// descScratch holds descriptions that a pass over many jobs unpacks one at a time
// (jobInfo): 900 bytes of garbage per job and query otherwise.
var descScratch = sync.Pool{New: func() any { return new(wire.JobDesc) }}

// unpackInto sets d to the description p holds.
func (p *packedDesc) unpackInto(d *wire.JobDesc) {
	*d = wire.JobDesc{}
	v := reflect.ValueOf(d).Elem()
	for c := (descCursor{p: p}); c.next(); {
		f := v.Field(c.i)
		switch descKinds[c.i] {
		case reflect.String:
			f.SetString(c.s[0])
		case reflect.Slice:
			l := make([]string, c.n) // never nil: a nil list was not set
			copy(l, c.s)
			f.Set(reflect.ValueOf(l))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(int64(c.n))
		default:
			f.SetUint(c.n)
		}
	}
}

// descCursor steps through the set fields of a packedDesc in order (a loop rather than a
// callback, so that reading one field allocates nothing).
type descCursor struct {
	p       *packedDesc
	pos, si int
	// The current field: its index, its number (a signed one as int64 bits, a []string's
	// length, 1 for a bool) and the strings from its own on (a string's value is s[0], a
	// []string's elements s[:n]).
	i int
	n uint64
	s []string
}

// next moves to the next set field; false at the end.
func (c *descCursor) next() bool {
	p := c.p
	if c.pos >= len(p.code) {
		return false
	}
	c.i = int(p.code[c.pos])
	c.pos++
	c.n, c.s = 0, p.strs[c.si:]
	switch descKinds[c.i] {
	case reflect.String:
		c.si++
	case reflect.Bool:
		c.n = 1
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		u := c.uvarint()
		c.n = u >> 1 // binary.AppendVarint's zig-zag
		if u&1 != 0 {
			c.n = ^c.n
		}
	case reflect.Slice:
		c.n = c.uvarint()
		c.si += int(c.n)
	default:
		c.n = c.uvarint()
	}
	return true
}

// uvarint reads the uvarint at c.pos (binary.Uvarint on the code string, which may not be
// converted to bytes without a copy).
func (c *descCursor) uvarint() uint64 {
	var x uint64
	for shift := 0; c.pos < len(c.p.code); shift += 7 {
		b := c.p.code[c.pos]
		c.pos++
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			break
		}
	}
	return x
}

// descField1 is the set field f of j's description as descCursor holds it; ok is false
// when the field is not set (holds its zero value).
func (j *jobRecord) descField1(f int) (n uint64, s []string, ok bool) {
	for c := (descCursor{p: &j.desc}); c.next(); {
		if c.i == f {
			return c.n, c.s, true
		}
		if c.i > f {
			break // fields are in index order
		}
	}
	return 0, nil, false
}

// descStr is the string field f (descField) of j's description.
func (j *jobRecord) descStr(f int) string {
	if _, s, ok := j.descField1(f); ok {
		return s[0]
	}
	return ""
}

// descUint is the unsigned number field f of j's description.
func (j *jobRecord) descUint(f int) uint64 {
	n, _, _ := j.descField1(f)
	return n
}

// descInt is the signed number field f of j's description.
func (j *jobRecord) descInt(f int) int64 {
	n, _, _ := j.descField1(f)
	return int64(n)
}

// descFlag is the bool field f of j's description.
func (j *jobRecord) descFlag(f int) bool {
	_, _, ok := j.descField1(f)
	return ok
}

// Desc returns j's description as submitted (with the defaults newJob put in it), a fresh
// copy: changing it changes nothing until setDesc.
func (j *jobRecord) Desc() *wire.JobDesc { return j.desc.unpack() }

// setDesc gives j (a record not yet installed) the description d.
func (j *jobRecord) setDesc(d *wire.JobDesc) { j.desc = packDesc(d) }

// editDesc applies change to j's description (j not yet installed).
func (j *jobRecord) editDesc(change func(d *wire.JobDesc)) {
	d := j.Desc()
	change(d)
	j.setDesc(d)
}

// encode is j as the store keeps it: the record with its whole description.
func (j *jobRecord) encode() ([]byte, error) {
	v, err := wire.Marshal(&storedJob{jobRecord: *j, Desc: j.Desc()})
	if err != nil {
		return nil, fmt.Errorf("encode job %d: %w", j.JobID, err)
	}
	return v, nil
}
