package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// testReply is a four-node cluster in two partitions: n1 busy, n2 half busy, n3 idle and
// drained with a reason, n4 down with another reason; n1-n4 in "batch" (default), n3-n4 also
// in "big". n4 has more memory.
func testReply() *wire.NodeInfoReply {
	mk := func(name string, st states.NodeState, alloc uint32, mem uint64) wire.NodeInfo {
		return wire.NodeInfo{Name: name, Hostname: name, Addr: "10.0.0." + name[1:], State: uint32(st),
			CPUs: 4, AllocCPUs: alloc, Sockets: 1, CoresPerSocket: 4, ThreadsPerCore: 1,
			RealMemory: mem, Weight: 1, Partitions: []string{"batch"}, Version: "22.05.8",
			CPULoad: format.NoVal, FreeMem: format.NoVal64}
	}
	n3 := mk("n3", states.NodeIdle|states.NodeDrain, 0, 1000)
	n3.Reason, n3.ReasonUID, n3.ReasonTime = "disk bad", 0, time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local).Unix()
	n4 := mk("n4", states.NodeDown|states.NodeNoRespond, 0, 2000)
	n4.Reason, n4.ReasonUID, n4.ReasonTime = "Not responding", 0, time.Date(2026, 1, 2, 3, 4, 6, 0, time.Local).Unix()
	n3.Partitions = []string{"batch", "big"}
	n4.Partitions = []string{"batch", "big"}
	part := func(name, nodes string, def bool) wire.PartitionInfo {
		return wire.PartitionInfo{Name: name, Nodes: nodes, Default: def, State: "UP", MaxTime: format.Infinite,
			DefaultTime: format.NoVal, MaxNodes: format.Infinite, OverSubscribe: "NO", PriorityTier: 1,
			PriorityJobFactor: 1, MaxCPUsPerNode: format.Infinite}
	}
	return &wire.NodeInfoReply{
		Nodes: []wire.NodeInfo{mk("n1", states.NodeAllocated, 4, 1000), mk("n2", states.NodeMixed, 2, 1000), n3, n4},
		Partitions: []wire.PartitionInfo{part("batch", "n[1-4]", true), part("big", "n[3-4]", false),
			part("empty", "", false)},
	}
}

// sinfo runs one invocation over testReply without a controller.
func sinfo(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stderr bytes.Buffer
	var stdout bytes.Buffer
	w := bufio.NewWriter(&stdout)
	env := func(string) (string, bool) { return "", false }
	p, code := parseArgs(append([]string{"sinfo"}, args...), env, w, &stderr)
	if code >= 0 {
		t.Fatalf("sinfo %q: exit %d: %s", args, code, stderr.String())
	}
	w.WriteString(render(p, testReply(), 6818))
	w.Flush()
	return stdout.String(), stderr.String()
}

// The views below are derived from the documented formats (sinfo(1), the default format
// strings in Slurm's opts.c) and the grouping rules of its sinfo.c, not recorded from the
// reference: the reference's one node cannot be drained or downed by a test.
func TestRender_Views(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, `PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
batch*       up   infinite      1  down* n4
batch*       up   infinite      1  drain n3
batch*       up   infinite      1    mix n2
batch*       up   infinite      1  alloc n1
big          up   infinite      1  down* n4
big          up   infinite      1  drain n3
empty        up   infinite      0    n/a 
`},
		{[]string{"-s"}, `PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST
batch*       up   infinite          2/0/2/4 n[1-4]
big          up   infinite          0/0/2/2 n[3-4]
empty        up   infinite          0/0/0/0 
`},
		{[]string{"-N"}, `NODELIST   NODES PARTITION STATE 
n1             1    batch* alloc 
n2             1    batch* mix   
n3             1    batch* drain 
n3             1       big drain 
n4             1    batch* down* 
n4             1       big down* 
`},
		{[]string{"-R"}, `REASON               USER      TIMESTAMP           NODELIST
Not responding       root      2026-01-02T03:04:06 n4
disk bad             root      2026-01-02T03:04:05 n3
`},
		{[]string{"-o", "%P %D %C %m", "-p", "batch"}, `PARTITION NODES CPUS(A/I/O/T) MEMORY
batch* 4 6/2/8/16 1000+
`},
		// -e splits by memory; the default sort puts the line whose first node has the
		// highest state word (n4: DOWN+NOT_RESPONDING) first.
		{[]string{"-o", "%P %D %m", "-e", "-p", "batch"}, `PARTITION NODES MEMORY
batch* 1 2000
batch* 3 1000
`},
		{[]string{"-o", "%N %t", "-t", "drain,down"}, `NODELIST STATE
n4 down*
n3 drain
`},
		{[]string{"-h", "-o", "%N", "-t", "drained"}, "n3\n"},
		{[]string{"-h", "-o", "%N", "-t", "alloc"}, "n[1-2]\n"},
		{[]string{"-h", "-o", "%N %t", "-r"}, "n3 drain\nn2 mix\nn1 alloc\n"},
		{[]string{"-h", "-o", "%N %t", "-d"}, "n4 down*\n"},
		{[]string{"-h", "-o", "%N", "-n", "n[2-3]"}, "n[2-3]\n"},
		// Without a state column, nodes in different states share a line.
		{[]string{"-h", "-o", "%R %N", "-S", "-P"}, "empty \nbig n[3-4]\nbatch n[1-4]\n"},
	}
	for _, c := range cases {
		got, errOut := sinfo(t, c.args...)
		if got != c.want || errOut != "" {
			t.Errorf("sinfo %q:\n got:\n%s\nwant:\n%s\nstderr: %q", c.args, got, c.want, errOut)
		}
	}
}

func TestMatchState(t *testing.T) {
	rec := func(st states.NodeState, alloc uint32) *nodeRec {
		return &nodeRec{NodeInfo: &wire.NodeInfo{AllocCPUs: alloc}, state: st}
	}
	cases := []struct {
		list  string
		node  *nodeRec
		match bool
	}{
		{"idle", rec(states.NodeIdle, 0), true},
		{"idle", rec(states.NodeIdle|states.NodeDrain, 0), true}, // base state only
		{"drain", rec(states.NodeIdle|states.NodeDrain, 0), true},
		{"drain", rec(states.NodeMixed|states.NodeDrain, 1), true},
		{"drained", rec(states.NodeMixed|states.NodeDrain, 1), false},
		{"draining", rec(states.NodeMixed|states.NodeDrain, 1), true},
		{"draining", rec(states.NodeIdle|states.NodeDrain, 0), false},
		{"alloc", rec(states.NodeMixed, 1), true},
		{"mix", rec(states.NodeAllocated, 4), false},
		{"no_respond", rec(states.NodeDown|states.NodeNoRespond, 0), true},
		{"idle&mix", rec(states.NodeIdle, 0), false},
		{"idle&drain", rec(states.NodeIdle|states.NodeDrain, 0), true},
		{"down,idle", rec(states.NodeIdle, 0), true},
		{",", rec(states.NodeIdle, 0), false},
		{"comp", rec(states.NodeIdle|states.NodeCompleting, 0), true},
	}
	for _, c := range cases {
		f, err := states.ParseNodeStateList(c.list)
		if err != nil {
			t.Fatalf("%q: %v", c.list, err)
		}
		if got := matchStates(f, c.node); got != c.match {
			t.Errorf("-t %s on %s = %v, want %v", c.list, c.node.state.Complete(), got, c.match)
		}
	}
}

func TestParseArgs_Errors(t *testing.T) {
	cases := []struct {
		args    []string
		env     map[string]string
		code    int
		wantErr string
	}{
		{[]string{"-l", "-o", "%P"}, nil, 1, "sinfo: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n"},
		{[]string{"-i", "0"}, nil, 1, "sinfo: error: Error: invalid entry for --iterate=0\n"},
		{[]string{"-a", "-p", "x"}, nil, 1, "sinfo: error: Conflicting options, -a and -p, specified. Please choose one or the other.\n"},
		{nil, map[string]string{"SINFO_ALL": "", "SINFO_PARTITION": "x"}, 1, "sinfo: error: Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one or the other.\n"},
		{[]string{"--bogus"}, nil, 1, "sinfo: unrecognized option '--bogus'\nTry \"sinfo --help\" for more information\n"},
		{[]string{"-t", "x"}, nil, 1, "sinfo: error: Bad state string: \"x\"\nsinfo: error: valid states: " + states.ValidNodeStateNames() + "\n"},
		{[]string{"--usage"}, nil, 0, ""},
	}
	for _, c := range cases {
		var stderr, stdout bytes.Buffer
		env := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		_, code := parseArgs(append([]string{"sinfo"}, c.args...), env, &stdout, &stderr)
		if code != c.code || stderr.String() != c.wantErr {
			t.Errorf("sinfo %q: exit %d, stderr %q; want %d, %q", c.args, code, stderr.String(), c.code, c.wantErr)
		}
	}
}

func TestAtoi(t *testing.T) {
	for s, want := range map[string]int{"5": 5, " 7x": 7, "x": 0, "-3": -3, "4294967297": 1, "99999999999999999999": -1} {
		if got := atoi(s); got != want {
			t.Errorf("atoi(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzParseArgs feeds arbitrary command lines to the option parser and the renderer: any
// input ends in output or an error message, never a panic.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"-N -l", "-o %P%5 -t idle&mix", "-O partition:.-3,all", "-S -#Pz,t -n n[1-", "-R -l -p a,,b", "-t ,", "-i 99999999999", "-s --hide -a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var out, errOut bytes.Buffer
		w := bufio.NewWriter(&out)
		env := func(string) (string, bool) { return "", false }
		p, code := parseArgs(append([]string{"sinfo"}, strings.Fields(s)...), env, w, &errOut)
		if code < 0 {
			render(p, testReply(), 6818)
		}
	})
}

// TestRun_Version: -V prints Orbit's version line; Debian's reference prints
// "slurm-wlm 22.05.8", upstream Slurm "slurm 22.05.8", which is what scripts parse.
func TestRun_Version(t *testing.T) {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	code := run([]string{"sinfo", "-V"}, func(string) (string, bool) { return "", false }, w, &bytes.Buffer{}, nil)
	w.Flush()
	if code != 0 || !strings.HasPrefix(out.String(), "slurm 22.05.8") {
		t.Errorf("sinfo -V: exit %d, %q", code, out.String())
	}
}
