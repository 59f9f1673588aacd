package wire

import (
	"errors"
	"reflect"
	"testing"
)

// fullJobInfo sets every field of a JobInfo to a distinct non-zero value (negative where
// signed, wide where 64-bit), so a field the packed form drops or garbles shows.
func fullJobInfo() JobInfo {
	var j JobInfo
	v := reflect.ValueOf(&j).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Uint16, reflect.Uint32:
			f.SetUint(uint64(1000*i + 7))
		case reflect.Uint64:
			f.SetUint(1<<40 + uint64(i))
		case reflect.Int32:
			f.SetInt(-int64(100*i + 3))
		case reflect.Int64:
			f.SetInt(-(1 << 35) - int64(i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			s := v.Type().Field(i).Name
			for len(s) < 40*(i%3) { // fixstr, str8 lengths
				s += "-" + s
			}
			f.SetString(s)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]uint32{1, 200, 70000, NoVal}))
		}
	}
	return j
}

func TestJobInfoPack_RoundTrip(t *testing.T) {
	jobs := []JobInfo{fullJobInfo(), {JobID: 7, ArrayTaskID: NoVal, MemPerCPU: NoVal64}, {}}
	b := AppendJobInfoListHeader(nil, len(jobs))
	for i := range jobs {
		b = AppendJobInfo(b, &jobs[i])
	}
	got, err := UnpackJobInfos(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, jobs) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, jobs)
	}
}

// TestJobInfoPack_Refs: with a JobInfoPacker, a repeated long string is written once and
// referred to after; the list reads back the same and is smaller than written whole.
func TestJobInfoPack_Refs(t *testing.T) {
	jobs := []JobInfo{fullJobInfo(), fullJobInfo(), {JobID: 7, WorkDir: "/home/alice/run1", Name: "short"},
		{JobID: 8, WorkDir: "/home/alice/run1", StdOut: "/home/alice/run1", Name: "short"}, fullJobInfo()}
	whole, refd := packBothWays(jobs)
	got, err := UnpackJobInfos(refd)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, jobs) {
		t.Errorf("round trip with references:\n got %+v\nwant %+v", got, jobs)
	}
	if len(refd)*2 > len(whole) {
		t.Errorf("with references %d bytes, whole %d: repeated strings were not referred to", len(refd), len(whole))
	}
}

// packBothWays packs jobs as one list with every string whole and as one with repeated
// strings as references.
func packBothWays(jobs []JobInfo) (whole, refd []byte) {
	whole = AppendJobInfoListHeader(nil, len(jobs))
	refd = AppendJobInfoListHeader(nil, len(jobs))
	var p JobInfoPacker
	for i := range jobs {
		whole = AppendJobInfo(whole, &jobs[i])
		refd = p.Append(refd, &jobs[i])
	}
	return whole, refd
}

// TestJobInfoPack_RefsPastUnknownField: a string in a field the reader does not know still
// joins the table, so references after it point where the sender meant.
func TestJobInfoPack_RefsPastUnknownField(t *testing.T) {
	// Key table: an unknown field, then name; job 1 sets both, job 2 refers to each.
	b := []byte{0x93, 0x92, 0xa5, 'z', 'z', 'z', 'z', 'z', 0xa4, 'n', 'a', 'm', 'e'}
	b = append(b, 0x82, 0x00, 0xa8)
	b = append(b, "unknown1"...)
	b = append(b, 0x01, 0xa9)
	b = append(b, "jobname12"...)
	b = append(b, 0x82, 0x00, 0x01, 0x01, 0x01) // zzzz → ref 1 (skipped as an int), name → ref 1
	got, err := UnpackJobInfos(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "jobname12" || got[1].Name != "jobname12" {
		t.Errorf("names %+v, want jobname12 twice", got)
	}
	bad := append(append([]byte{}, b[:len(b)-1]...), 0x05) // a reference past the table
	if _, err := UnpackJobInfos(bad); !errors.Is(err, ErrBadPacked) {
		t.Errorf("reference past the table: err %v, want ErrBadPacked", err)
	}
}

// TestJobInfoPack_UnknownKeys checks that a reader skips fields a newer sender names in its
// key table and sends, whatever their type.
func TestJobInfoPack_UnknownKeys(t *testing.T) {
	j := JobInfo{JobID: 42, Name: "x", TimeLimit: Infinite}
	one := AppendJobInfo(nil, &j)
	packFields := jobInfoLayout().fields
	// A table with one more key, and the job's map with that key (a nested value) added.
	b := appendArrayLen(nil, 2)
	b = appendArrayLen(b, len(packFields)+1)
	for i := range packFields {
		b = appendStr(b, packFields[i].name)
	}
	b = appendStr(b, "zz_future")
	n := int(one[1])<<8 | int(one[2])
	b = append(b, 0xde, byte((n+1)>>8), byte(n+1))
	b = appendUint(b, uint64(len(packFields)))
	b = append(b, 0x82, 0xa1, 'a', 0x93, 0x01, 0xcb, 1, 2, 3, 4, 5, 6, 7, 8, 0xc0, 0xa1, 'b', 0xc7, 0x01, 0x05, 0x00)
	b = append(b, one[3:]...)
	got, err := UnpackJobInfos(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0], j) {
		t.Errorf("got %+v, want %+v", got, j)
	}
}

func TestJobInfoReply_Unpack(t *testing.T) {
	j := fullJobInfo()
	rep := &JobInfoReply{LastUpdate: 5, Packed: AppendJobInfo(AppendJobInfoListHeader(nil, 1), &j)}
	b, err := Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got JobInfoReply
	if err := Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := got.Unpack(); err != nil {
		t.Fatal(err)
	}
	if got.Packed != nil || len(got.Jobs) != 1 || !reflect.DeepEqual(got.Jobs[0], j) {
		t.Errorf("unpacked %+v", got)
	}
	empty := &JobInfoReply{Packed: AppendJobInfoListHeader(nil, 0)}
	if err := empty.Unpack(); err != nil || len(empty.Jobs) != 0 {
		t.Errorf("empty list: %v %v", empty.Jobs, err)
	}
}

func TestJobInfoPack_Malformed(t *testing.T) {
	j := fullJobInfo()
	good := AppendJobInfo(AppendJobInfoListHeader(nil, 1), &j)
	for name, b := range map[string][]byte{
		"empty":        {},
		"not an array": {0xa1, 'x'},
		"huge count":   {0xdd, 0xff, 0xff, 0xff, 0xff},
		"truncated":    good[:len(good)/2],
		"trailing":     append(append([]byte{}, good...), 0x00),
		"bad value":    {0x92, 0x91, 0xa6, 'j', 'o', 'b', '_', 'i', 'd', 0x81, 0x00, 0xa1, 'x'},
		"bad key":      {0x92, 0x91, 0xa6, 'j', 'o', 'b', '_', 'i', 'd', 0x81, 0x05, 0x01},
		"no key table": {0x91, 0x81, 0x00, 0x01},
		"deep nesting": append([]byte{0x92, 0x91, 0xa1, 'q', 0x81, 0x00}, repeat(0x91, 100)...),
	} {
		if _, err := UnpackJobInfos(b); !errors.Is(err, ErrBadPacked) {
			t.Errorf("%s: err %v, want ErrBadPacked", name, err)
		}
	}
}

func repeat(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

func FuzzUnpackJobInfos(f *testing.F) {
	j := fullJobInfo()
	f.Add(AppendJobInfo(AppendJobInfoListHeader(nil, 1), &j))
	f.Add(AppendJobInfoListHeader(nil, 0))
	f.Add([]byte{0x92, 0x91, 0xa1, 'q', 0x81, 0x00, 0xc7, 0x01, 0x05, 0x00})
	var p JobInfoPacker
	two := []JobInfo{fullJobInfo(), fullJobInfo()}
	f.Add(p.Append(p.Append(AppendJobInfoListHeader(nil, 2), &two[0]), &two[1]))
	f.Fuzz(func(t *testing.T, b []byte) {
		jobs, err := UnpackJobInfos(b)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes, strings whole or as references, to something that
		// decodes to the same jobs.
		out, refd := packBothWays(jobs)
		for _, enc := range [][]byte{out, refd} {
			again, err := UnpackJobInfos(enc)
			if err != nil || !reflect.DeepEqual(normal(again), normal(jobs)) {
				t.Fatalf("re-encode: %v", err)
			}
		}
	})
}

// normal maps empty CPUsPerNode to nil: the packed form writes an empty list, which the
// reader gives back as an empty (non-nil) slice.
func normal(jobs []JobInfo) []JobInfo {
	for i := range jobs {
		if len(jobs[i].CPUsPerNode) == 0 {
			jobs[i].CPUsPerNode = nil
		}
	}
	return jobs
}

// benchQueue is a packed list of n jobs shaped like a held queue's.
func benchQueue(n int) ([]byte, []JobInfo) {
	jobs := make([]JobInfo, n)
	for i := range jobs {
		jobs[i] = JobInfo{JobID: uint32(i + 1), ArrayTaskID: NoVal, Name: "wrap", UserName: "root", GroupName: "root",
			Partition: "debug", State: 0, Reason: 2, NumNodes: 1, NumCPUs: 1, NumTasks: 1, CPUsPerTask: 1,
			NTasksPerNode: NoVal, MemPerNode: NoVal64, MemPerCPU: NoVal64, TimeLimit: Infinite, TimeMin: NoVal,
			SubmitTime: 1_700_000_000 + int64(i), WorkDir: "/home/alice/work/run", StdOut: "/home/alice/work/run/slurm-%j.out",
			StdErr: "/home/alice/work/run/slurm-%j.out", StdIn: "/dev/null", SubmitLine: "sbatch --wrap true",
			AllocNode: "login1", OverSubscribe: "OK", TRES: "cpu=1,mem=1000M,node=1,billing=1", LastSchedEval: 1_700_000_000,
			MinCPUsNode: 1, Command: "(null)"}
	}
	b := AppendJobInfoListHeader(nil, n)
	for i := range jobs {
		b = AppendJobInfo(b, &jobs[i])
	}
	return b, jobs
}

// BenchmarkJobInfoPack10000 packs and unpacks a queue of 10,000 jobs (squeue's decode).
func BenchmarkJobInfoPack10000(b *testing.B) {
	packed, jobs := benchQueue(10000)
	b.Run("unpack", func(b *testing.B) {
		b.SetBytes(int64(len(packed)))
		for b.Loop() {
			if _, err := UnpackJobInfos(packed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pack", func(b *testing.B) {
		out := make([]byte, 0, len(packed))
		for b.Loop() {
			out = AppendJobInfoListHeader(out[:0], len(jobs))
			for i := range jobs {
				out = AppendJobInfo(out, &jobs[i])
			}
		}
	})
	b.Run("codec", func(b *testing.B) { // what a reply of plain JobInfo maps costs to decode
		plain, err := Marshal(jobs)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			var got []JobInfo
			if err := Unmarshal(plain, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
