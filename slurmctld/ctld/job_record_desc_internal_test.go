package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestShareDesc: equal descriptions are one copy, different ones are not, and changing a
// record's description (editDesc) leaves the jobs sharing it alone.
func TestShareDesc(t *testing.T) {
	mk := func(name string) *wire.JobDesc {
		return &wire.JobDesc{Name: name, WorkDir: "/home/alice", MinNodes: wire.NoVal, ScriptArgs: []string{"a"}}
	}
	a := shareDesc(mk("x"))
	b := shareDesc(mk("x"))
	if a != b {
		t.Fatal("two equal descriptions are not shared")
	}
	if c := shareDesc(mk("y")); c == a {
		t.Fatal("different descriptions share one copy")
	}
	empty := mk("x")
	empty.ScriptArgs = []string{}
	if shareDesc(empty) == a {
		t.Fatal("a description with an empty argument list shares one with arguments")
	}
	j1 := &jobRecord{JobID: 1, Desc: a}
	j2 := j1.clone()
	j2.JobID = 2
	j2.editDesc().Name = "renamed"
	if j1.Desc.Name != "x" || b.Name != "x" || j2.Desc.Name != "renamed" {
		t.Fatalf("names after editDesc: %q %q %q, want x x renamed", j1.Desc.Name, b.Name, j2.Desc.Name)
	}
}

// FuzzDecodeJob: any stored bytes decode to a record with a description, or to an error;
// never a panic.
func FuzzDecodeJob(f *testing.F) {
	for _, j := range []*jobRecord{
		{JobID: 5, Desc: &wire.JobDesc{Name: "x"}},
		{JobID: 6, Nodes: []string{"n1"}, CPUsPerNode: []uint32{2}, Desc: &wire.JobDesc{}},
	} {
		b, err := wire.Marshal(j)
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
		if err == nil && j.Desc == nil {
			t.Fatal("decoded record without a description")
		}
	})
}
