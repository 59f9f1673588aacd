package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/internal/wire"
)

func TestParseArgs(t *testing.T) {
	cases := []struct {
		args   []string
		ntasks uint32
		nodes  uint32
		label  bool
		argv   []string
	}{
		{[]string{"hostname"}, 0, 0, false, []string{"hostname"}},
		{[]string{"-n", "4", "-l", "./a.out", "-n", "2"}, 4, 0, true, []string{"./a.out", "-n", "2"}},
		{[]string{"-ln4", "-N2", "echo", "hi"}, 4, 2, true, []string{"echo", "hi"}},
		{[]string{"--ntasks=3", "--nodes", "1-2", "--", "-x"}, 3, 1, false, []string{"-x"}},
	}
	for _, c := range cases {
		o, err := parseArgs(c.args, nil)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if o.ntasks != c.ntasks || o.nodes != c.nodes || o.label != c.label || !slices.Equal(o.argv, c.argv) {
			t.Errorf("%q: got n=%d N=%d l=%v argv=%q", c.args, o.ntasks, o.nodes, o.label, o.argv)
		}
	}
	for _, bad := range [][]string{{"-n"}, {"-n", "x", "true"}, {"--bogus", "true"}, {"--het-group=0", "true"}} {
		if _, err := parseArgs(bad, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestParseArgs_TaskIO checks the per-task I/O and step-control options srun honours, and
// -K's value handling as the reference's (srun: error: Invalid numeric value "abc" for
// --kill-on-bad-exit., exit 1).
func TestParseArgs_TaskIO(t *testing.T) {
	o, err := parseArgs([]string{"-u", "-o", "out.%t", "-e", "err.%n", "-i", "none", "-K", "--multi-prog", "mp.conf", "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.output != "out.%t" || o.errorf != "err.%n" || o.input != "none" || o.killBadExit != 1 || !o.multiProg ||
		len(o.argv) != 2 || o.argv[0] != "mp.conf" {
		t.Errorf("parsed %+v", o)
	}
	if o, _ := parseArgs([]string{"true"}, nil); o.killBadExit != -1 {
		t.Errorf("-K not given: killBadExit %d, want -1 (slurm.conf decides)", o.killBadExit)
	}
	if o, _ := parseArgs([]string{"--kill-on-bad-exit=0", "true"}, nil); o.killBadExit != 0 {
		t.Errorf("--kill-on-bad-exit=0: killBadExit %d", o.killBadExit)
	}
	if o, _ := parseArgs([]string{"true"}, []string{"SLURM_KILL_BAD_EXIT=1"}); o.killBadExit != 1 {
		t.Errorf("SLURM_KILL_BAD_EXIT=1: killBadExit %d", o.killBadExit)
	}
	_, err = parseArgs([]string{"--kill-on-bad-exit=abc", "true"}, nil)
	var perr *compatopts.Error
	if !errors.As(err, &perr) || perr.Stderr != "srun: error: Invalid numeric value \"abc\" for --kill-on-bad-exit.\n" || perr.ExitCode != 1 {
		t.Errorf("--kill-on-bad-exit=abc: %v", err)
	}
}

func TestParseArgs_Memory(t *testing.T) {
	o, err := parseArgs([]string{"--mem-per-cpu=1G", "true"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.memPerCPU != 1024 {
		t.Errorf("--mem-per-cpu=1G: %d MiB per CPU, want 1024", o.memPerCPU)
	}
	// sbatch --mem exports SLURM_MEM_PER_NODE, which every srun inside the job reads back.
	if o, err = parseArgs([]string{"true"}, []string{"SLURM_MEM_PER_NODE=512"}); err != nil {
		t.Fatal(err)
	}
	if o.memPerNode != 512 {
		t.Errorf("SLURM_MEM_PER_NODE=512: %d MiB per node, want 512", o.memPerNode)
	}
}

// TestParseArgs_InAllocation: inside an allocation the job-level options a step request does
// not carry are accepted and ignored, as Slurm 22.05's srun does (the reference ran the step
// for each); --constraint and --exclude go to the step.
func TestParseArgs_InAllocation(t *testing.T) {
	for _, args := range [][]string{{"--dependency=afterok:1"}, {"--deadline=now+1hour"}, {"-H"}, {"--mincpus=2"},
		{"--exclusive=user"}, {"--begin=now+60"}, {"--constraint=ib"}, {"-x", "n1"}} {
		if _, err := parseArgs(append(args, "true"), []string{"SLURM_JOB_ID=7"}); err != nil {
			t.Errorf("%q inside an allocation: %v", args, err)
		}
	}
}

func TestParseArgs_RefusesWhatSrunDoesNotHonour(t *testing.T) {
	// The shared table implements these for sbatch; srun must refuse them by name, never
	// ignore them, and so must it refuse options Orbit implements nowhere yet.
	for _, c := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"--exclusive=mcs", "true"}, nil, "srun: error: --exclusive=mcs is not supported by Orbit's srun yet\n"},
		{[]string{"--het-group=0", "true"}, nil, "srun: error: --het-group is not supported by Orbit yet\n"},
	} {
		_, err := parseArgs(c.args, c.env)
		var perr *compatopts.Error
		if !errors.As(err, &perr) || perr.Stderr != c.want || perr.ExitCode != 1 {
			t.Errorf("%q: %v, want %q exit 1", c.args, err, c.want)
		}
	}
}

// TestStepEnvNames checks that a step inside a batch job gets every SLURM_* name the
// reference gives (testdata/record.sh), given what slurmd adds per task and what the batch
// environment (srun's own environment there) already holds.
func TestStepEnvNames(t *testing.T) {
	b, err := os.ReadFile("testdata/env_batch_n3_c2.golden")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, _, _ := strings.Cut(l, "=")
		want = append(want, k)
	}
	// From the batch environment (slurmstepd sets them for the batch script; srun in an
	// allocation passes them on rather than setting them).
	batch := []string{"SLURM_NODE_ALIASES=(null)", "SLURM_CLUSTER_NAME=c", "SLURM_JOB_CPUS_PER_NODE=6",
		"SLURM_JOB_NUM_NODES=1", "SLURM_SUBMIT_DIR=/tmp", "SLURM_SUBMIT_HOST=h"}
	e := &stepEnv{base: batch, commHost: "127.0.0.1", commPort: 1, label: true, cpt: 2, inAlloc: true,
		step: &wire.StepCreateReply{JobID: 5, Nodes: []string{"n1"}, NodeList: "n1", Tasks: []uint32{3},
			CPUsOnNode: []uint32{6}, JobCPUs: []uint32{6}, NumTasks: 3}}
	got := map[string]bool{"SLURMD_NODENAME": true, "SLURM_PROCID": true, "SLURM_LOCALID": true, "SLURM_TASK_PID": true}
	for _, kv := range e.nodeEnv(0, []uint32{0, 1, 2}) {
		k, _, _ := strings.Cut(kv, "=")
		got[k] = true
	}
	var missing []string
	for _, k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("missing %q", missing)
	}
}

func FuzzParseArgs(f *testing.F) {
	f.Add("-n\x004\x00-l\x00hostname")
	f.Add("--nodes=1-2\x00--\x00x")
	f.Add("-ln")
	f.Fuzz(func(t *testing.T, s string) {
		parseArgs(strings.Split(s, "\x00"), nil)
	})
}

// TestSettleCounts: a node count and a task count both given are settled as Slurm 22.05's
// srun does before it asks for an allocation (lines and counts from the reference): fewer
// tasks than nodes lower the nodes, an --ntasks-per-node that does not divide the tasks is
// dropped, with a warning only when the tasks exceed it; the allocation's environment
// counts as given.
func TestSettleCounts(t *testing.T) {
	for _, c := range []struct {
		args           []string
		env            []string
		nodes, perNode uint32
		warning        string
	}{
		{[]string{"-N4", "-n2", "true"}, nil, 2, 0, "srun: Warning: can't run 2 processes on 4 nodes, setting nnodes to 2\n"},
		{[]string{"-N2", "-n4", "--ntasks-per-node=3", "true"}, nil, 2, 0,
			"srun: Warning: can't honor --ntasks-per-node set to 3 which doesn't match the requested tasks 4 with the number of requested nodes 2. Ignoring --ntasks-per-node.\n"},
		{[]string{"-N2", "-n2", "--ntasks-per-node=4", "true"}, nil, 2, 0, ""},
		{[]string{"-N2", "-n4", "--ntasks-per-node=2", "true"}, nil, 2, 2, ""},
		{[]string{"-n4", "true"}, []string{"SLURM_JOB_ID=7", "SLURM_NNODES=2", "SLURM_JOB_NUM_NODES=2", "SLURM_NTASKS_PER_NODE=3"}, 2, 0,
			"srun: Warning: can't honor --ntasks-per-node set to 3 which doesn't match the requested tasks 4 with the number of requested nodes 2. Ignoring --ntasks-per-node.\n"},
		{[]string{"-n4", "true"}, nil, 0, 0, ""},
		// A --nodelist asks for its nodes; fewer tasks keep its first ones.
		{[]string{"-w", "n[2-3]", "-n1", "true"}, nil, 1, 0, "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n"},
		{[]string{"-w", "n[2-3]", "-N1-2", "true"}, nil, 2, 0, ""},
		{[]string{"-w", "n2", "-N3", "true"}, nil, 3, 0, ""},
	} {
		o, err := parseArgs(c.args, c.env)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		var stderr strings.Builder
		settleCounts(o, &stderr)
		if o.nodes != c.nodes || o.tasksPerNode != c.perNode || stderr.String() != c.warning {
			t.Errorf("%q %q: nodes %d, per node %d, stderr %q; want %d, %d, %q", c.args, c.env, o.nodes, o.tasksPerNode, stderr.String(), c.nodes, c.perNode, c.warning)
		}
	}
}

// TestSettleCounts_TasksPerNode: --ntasks-per-node without -n sets the tasks to that many on
// each node of the minimum (one node when -N is not given), as Slurm's _opt_verify.
func TestSettleCounts_TasksPerNode(t *testing.T) {
	for _, c := range []struct {
		args   []string
		ntasks uint32
	}{
		{[]string{"--ntasks-per-node=1", "true"}, 1},
		{[]string{"--ntasks-per-node=2", "-N1-3", "true"}, 2},
		{[]string{"--ntasks-per-node=2", "-N3", "true"}, 6},
		{[]string{"--ntasks-per-node=2", "-n5", "true"}, 5},
	} {
		o, err := parseArgs(c.args, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		settleCounts(o, io.Discard)
		if !o.ntasksSet || o.ntasks != c.ntasks {
			t.Errorf("%q: tasks %d (set %v), want %d", c.args, o.ntasks, o.ntasksSet, c.ntasks)
		}
	}
}

// TestStepInAllocation: inside an allocation srun settles the step's nodes and tasks before
// asking for it, as Slurm 22.05's srun did on the reference (an allocation of four nodes
// with four CPUs each, or two with four): --exclude becomes the step's node list, -N's
// maximum (else minimum) bounds the nodes, the tasks default to a node each, to
// --ntasks-per-node's per node, or with -c to what all the allocation's CPUs hold; errors
// are srun's lines.
func TestStepInAllocation(t *testing.T) {
	four := &wire.JobAllocInfo{Nodes: []string{"n1", "n2", "n3", "n4"}, CPUsPerNode: []uint32{4, 4, 4, 4}}
	two := &wire.JobAllocInfo{Nodes: []string{"n1", "n2"}, CPUsPerNode: []uint32{4, 4}}
	for _, c := range []struct {
		args     []string
		env      []string
		alloc    *wire.JobAllocInfo
		nodelist string
		nodes    uint32
		ntasks   uint32
		errs     string
	}{
		{[]string{"-x", "n1", "true"}, nil, four, "n[2-4]", 3, 3, ""},
		{[]string{"-x", "n1", "-N1-2", "true"}, nil, four, "n[2-3]", 1, 2, ""},
		{[]string{"-x", "n1", "-n2", "true"}, nil, four, "n[2-3]", 2, 2, ""},
		{[]string{"-x", "n5", "true"}, nil, four, "n[1-4]", 4, 4, ""},
		// The listed node first, then the others (the controller keeps the allocation's order).
		{[]string{"-x", "n1", "-w", "n3", "-N3", "true"}, nil, four, "n[3,2,4]", 3, 3, ""},
		{[]string{"-x", "n[1-2]", "-n3", "true"}, []string{"SLURM_JOB_NUM_NODES=3"}, four, "", 0, 0,
			"srun: error: Only allocated 2 nodes asked for 3\nsrun: error: Are required nodes explicitly excluded?\n"},
		{[]string{"-x", "n[1-4]", "true"}, nil, four, "", 0, 0, "srun: error: Hostlist is empty!  Can't run job.\n"},
		{[]string{"-x", "n2", "-w", "n2", "true"}, nil, four, "", 0, 0,
			"srun: error: Requested node n2 is also in the excluded list.\nsrun: error: Job not submitted.\n"},
		{[]string{"-N1-2", "true"}, nil, four, "", 1, 2, ""},
		{[]string{"-c2", "true"}, nil, two, "", 2, 4, ""},
		{[]string{"-N1", "-c2", "true"}, nil, two, "", 1, 4, ""},
		// Two tasks of one node each: the step's minimum follows the tasks (n[1-2] on the reference).
		{[]string{"--ntasks-per-node=2", "true"}, nil, four, "", 2, 2, ""},
		{[]string{"-n3", "true"}, nil, four, "", 3, 3, ""},
		{[]string{"-N3", "true"}, nil, two, "", 0, 0, "srun: error: Only allocated 2 nodes asked for 3\n"},
	} {
		env := append([]string{"SLURM_JOB_ID=7"}, c.env...)
		o, err := parseArgs(c.args, env)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		settleCounts(o, io.Discard)
		var stderr strings.Builder
		ok := stepInAllocation(o, c.alloc, func(msg string) { fmt.Fprintf(&stderr, "srun: error: %s\n", msg) })
		if ok != (c.errs == "") || stderr.String() != c.errs {
			t.Errorf("%q: ok %v, stderr %q; want %q", c.args, ok, stderr.String(), c.errs)
			continue
		}
		if ok && (o.nodelist != c.nodelist || o.nodes != c.nodes || o.ntasks != c.ntasks) {
			t.Errorf("%q: nodelist %q, nodes %d, tasks %d; want %q, %d, %d", c.args, o.nodelist, o.nodes, o.ntasks, c.nodelist, c.nodes, c.ntasks)
		}
	}
}

// TestExcludeLibraries: --bcast-exclude drops the libraries under its directories (a
// directory counts with or without its last '/', never a mere name prefix), "none" drops
// nothing, and a relative entry is ignored with Slurm's line.
func TestExcludeLibraries(t *testing.T) {
	libs := []string{"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2", "/usr/lib/libz.so.1", "/usr/libexec/a.so", "/opt/l/libm.so"}
	var stderr strings.Builder
	got := excludeLibraries(libs, "/lib,/usr/lib/,x", &stderr)
	if want := []string{"/lib64/ld-linux-x86-64.so.2", "/usr/libexec/a.so", "/opt/l/libm.so"}; !slices.Equal(got, want) {
		t.Errorf("excluded to %q, want %q", got, want)
	}
	if stderr.String() != "srun: error: Ignoring non-absolute excluded path: 'x'\n" {
		t.Errorf("stderr %q", stderr.String())
	}
	if got := excludeLibraries(libs, "NONE", io.Discard); !slices.Equal(got, libs) {
		t.Errorf("none: %q", got)
	}
}
