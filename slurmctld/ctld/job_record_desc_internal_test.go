package ctld

import (
	"reflect"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// fullDesc is a description with fields of every kind set, extremes included.
func fullDesc() *wire.JobDesc {
	return &wire.JobDesc{
		Name: "x", Partition: "a,b", WorkDir: "/home/alice", MinNodes: wire.NoVal, MaxNodes: wire.Infinite,
		MemPerNode: wire.NoVal64, MemPerCPU: 1 << 63, Requeue: -1, Nice: -2147483648, KillInvalid: 2147483647,
		BeginTime: -5, Deadline: 1 << 40, Hold: true, Reboot: true, MailType: 0xffff, SignalFlags: 1,
		ScriptArgs: []string{"a", "", "c"}, Environment: []string{}, Script: "#!/bin/sh\n", Prefer: "p",
		MinCPUs: 3, SubmitLine: "sbatch x",
	}
}

// TestPackDesc: a packed description unpacks to what was packed, nil and empty lists apart,
// and single fields read alike.
func TestPackDesc(t *testing.T) {
	for _, d := range []*wire.JobDesc{{}, fullDesc(), {Environment: []string{"A=1"}, ScriptArgs: nil, Nice: 1}} {
		p := packDesc(d)
		if got := p.unpack(); !reflect.DeepEqual(got, d) {
			t.Fatalf("unpacked %+v\nwant %+v", got, d)
		}
		j := &jobRecord{desc: p}
		if j.descStr(descName) != d.Name || j.descStr(descPartition) != d.Partition || j.descStr(descScript) != d.Script {
			t.Fatalf("strings read alone differ from %+v", d)
		}
		if int32(j.descInt(descNice)) != d.Nice || int32(j.descInt(descRequeue)) != d.Requeue || j.descInt(descDeadline) != d.Deadline {
			t.Fatalf("signed numbers read alone differ from %+v", d)
		}
		if uint32(j.descUint(descMinCPUs)) != d.MinCPUs || j.descFlag(descNoKill) != d.NoKill {
			t.Fatalf("numbers read alone differ from %+v", d)
		}
	}
}

// TestEditDesc: changing a record's description leaves its clones' alone, and the store
// keeps the whole description under "desc" as before.
func TestEditDesc(t *testing.T) {
	j1 := &jobRecord{JobID: 1, desc: packDesc(fullDesc())}
	j2 := j1.clone()
	j2.JobID = 2
	j2.editDesc(func(d *wire.JobDesc) { d.Name = "renamed" })
	if j1.Desc().Name != "x" || j2.Desc().Name != "renamed" || j2.Desc().WorkDir != "/home/alice" {
		t.Fatalf("names after editDesc: %q %q, want x renamed", j1.Desc().Name, j2.Desc().Name)
	}
	v, err := j1.encode()
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		JobID uint32        `codec:"job_id"`
		Desc  *wire.JobDesc `codec:"desc"`
	}
	if err := wire.Unmarshal(v, &stored); err != nil {
		t.Fatal(err)
	}
	if stored.JobID != 1 || !reflect.DeepEqual(stored.Desc, fullDesc()) {
		t.Fatalf("stored record %+v", stored)
	}
	back, err := decodeJob(v)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, j1) {
		t.Fatalf("decoded %+v\nwant %+v", back, j1)
	}
}

// FuzzDecodeJob: any stored bytes decode to a record or to an error; never a panic, and a
// decoded description reads back whole.
func FuzzDecodeJob(f *testing.F) {
	for _, j := range []*jobRecord{
		{JobID: 5, desc: packDesc(&wire.JobDesc{Name: "x"})},
		{JobID: 6, Nodes: []string{"n1"}, CPUsPerNode: []uint32{2}, desc: packDesc(fullDesc())},
	} {
		b, err := j.encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	noDesc, _ := wire.Marshal(map[string]any{"job_id": 7})
	f.Add(noDesc)
	f.Add([]byte{0xc1})
	f.Fuzz(func(t *testing.T, v []byte) {
		j, err := decodeJob(v)
		if err != nil {
			return
		}
		d := j.Desc()
		if p := packDesc(d); !reflect.DeepEqual(p.unpack(), d) {
			t.Fatalf("description does not survive packing: %+v", d)
		}
	})
}
