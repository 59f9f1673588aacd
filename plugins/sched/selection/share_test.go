package selection

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestSelect_ShareRows: in a partition with OverSubscribe=FORCE:2 jobs are placed as
// select/cons_tres placed them on the reference (four nodes of 64 CPUs): idle CPUs first,
// then the fullest row with room, then an empty row; an --exclusive job takes a node whole
// in a row that holds nothing there; a Tally never says no where Select
// fits; no row ever holds more than a node has; releasing every job leaves the pool as new.
func TestSelect_ShareRows(t *testing.T) {
	var nodes []scheduler.Node
	for _, n := range []string{"n1", "n2", "n3", "n4"} {
		nodes = append(nodes, gresNode(n, 64))
	}
	pt := part(nodes)
	pt.ShareRows, pt.ShareForce = 2, true
	p := NewPool(Mode{CPUs: true}, nodes)
	p.LimitPartitions([]scheduler.Partition{*pt})
	type booked struct {
		a    Alloc
		excl bool
	}
	var held []booked
	for _, c := range []struct {
		what      string
		tasks     uint32
		nodes     uint32
		req       []string
		exclusive bool
		want      string // nodes, "" for no fit
		busy      [4]uint32
	}{
		{"-n60", 60, 1, nil, false, "n1", [4]uint32{60, 0, 0, 0}},
		{"-n10 -w n1", 10, 1, []string{"n1"}, false, "n1,n2", [4]uint32{64, 6, 0, 0}},
		{"-n200", 200, 1, nil, false, "n1,n2,n3,n4", [4]uint32{64, 64, 64, 8}},
		{"-n60 again", 60, 1, nil, false, "n3", [4]uint32{64, 64, 64, 8}},
		{"-n256", 256, 1, nil, false, "", [4]uint32{64, 64, 64, 8}},
		{"--exclusive -N1: whole in the row with nothing there", 0, 1, nil, true, "n4", [4]uint32{64, 64, 64, 64}},
		{"-n1: the fullest row first (200 CPUs, 56 free on n4)", 1, 1, nil, false, "n4", [4]uint32{64, 64, 64, 64}},
	} {
		j := &scheduler.Job{ID: 1, Partition: "p", MinNodes: c.nodes, NumTasks: max(c.tasks, c.nodes), CPUsPerTask: 1, ReqNodes: c.req, Exclusive: c.exclusive}
		tally := p.Watch(j, pt)
		mayFit := tally.MayFit()
		p.Unwatch()
		a, ok := p.Select(j, pt)
		got := ""
		if ok {
			got = strings.Join(a.Nodes, ",")
		}
		if got != c.want {
			t.Fatalf("%s: placed on %q, want %q", c.what, got, c.want)
		}
		if ok && !mayFit {
			t.Errorf("%s: the Tally says it cannot fit, Select placed it", c.what)
		}
		if ok {
			if !a.Share {
				t.Errorf("%s: allocation not marked as sharing", c.what)
			}
			p.Take(a, c.exclusive)
			held = append(held, booked{a, c.exclusive})
		}
		for i, n := range []string{"n1", "n2", "n3", "n4"} {
			f := p.Node(n)
			if busy := min(f.AllocCPUs+f.ShareCPUs, 64); busy != c.busy[i] {
				t.Errorf("%s: %s has %d CPUs held, want %d", c.what, n, busy, c.busy[i])
			}
		}
		if n := p.Overbooked(); n != "" {
			t.Fatalf("%s: %s overbooked", c.what, n)
		}
	}
	for _, h := range held {
		p.Release(h.a, h.excl)
	}
	for _, n := range []string{"n1", "n2", "n3", "n4"} {
		if f := p.Node(n); f.ShareCPUs != 0 || f.ShareJobs != 0 || f.Jobs != 0 || f.AllocCPUs != 0 {
			t.Errorf("%s after every release: %+v", n, *f)
		}
	}
	for _, rs := range p.share {
		for r, total := range rs.total {
			if total != 0 {
				t.Errorf("row %d still holds %d CPUs", r, total)
			}
		}
	}
}

// TestSelect_ShareOnlyWithSharers: under OverSubscribe=YES:2 a job without
// --oversubscribe takes idle CPUs only, a job with it never joins a node where one without
// it runs, and a job of another partition keeps off nodes where jobs share.
func TestSelect_ShareOnlyWithSharers(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 4), gresNode("n2", 4)}
	yes := part(nodes)
	yes.ShareRows = 2
	other := part(nodes)
	other.Name = "other"
	p := NewPool(Mode{CPUs: true}, nodes)
	p.LimitPartitions([]scheduler.Partition{*yes, *other})
	job := func(tasks uint32, over bool, partition string) *scheduler.Job {
		return &scheduler.Job{ID: 1, Partition: partition, MinNodes: 1, NumTasks: tasks, CPUsPerTask: 1, Oversubscribe: over}
	}
	plain, ok := p.Select(job(4, false, "p"), yes)
	if !ok || strings.Join(plain.Nodes, ",") != "n1" || plain.Share {
		t.Fatalf("plain job: %+v %v", plain, ok)
	}
	p.Take(plain, false)
	if a, ok := p.Select(job(4, true, "p"), yes); !ok || strings.Join(a.Nodes, ",") != "n2" {
		t.Fatalf("--oversubscribe job beside a plain one: %+v %v, want n2", a, ok)
	} else {
		p.Take(a, false)
	}
	if a, ok := p.Select(job(2, true, "p"), yes); !ok || strings.Join(a.Nodes, ",") != "n2" {
		t.Fatalf("second --oversubscribe job: %+v %v, want n2 (second row)", a, ok)
	} else {
		p.Take(a, false)
	}
	if _, ok := p.Select(job(1, false, "other"), other); ok {
		t.Error("a job of another partition joined nodes where jobs share or a plain job holds all")
	}
	if _, ok := p.Select(job(1, false, "p"), yes); ok {
		t.Error("a plain job took CPUs sharing jobs hold")
	}
}
