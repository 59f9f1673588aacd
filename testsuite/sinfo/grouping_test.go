package sinfo

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSinfo_GroupsNodesByState runs sinfo on a four-node Orbit cluster with one job filling
// n[1-2] and one using a single CPU of n3: the nodes fall into one line per state, as
// sinfo(1) documents. Not reference-verified: the reference has a single node, so it never
// shows several nodes on one line.
func TestSinfo_GroupsNodesByState(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 4, InProcess: true})
	for _, args := range [][]string{{"-N", "2", "-n", "8"}, {"-n", "1"}} {
		out, errOut, code := c.Run(t, "sbatch", append(args, "--parsable", "-o", "/dev/null", "--wrap", "sleep 600")...)
		if code != 0 {
			t.Fatalf("sbatch %q: exit %d: %s", args, code, errOut)
		}
		id := strings.TrimSpace(out)
		t.Cleanup(func() { c.Run(t, "scancel", id) })
		var jid uint32
		for _, ch := range id {
			jid = jid*10 + uint32(ch-'0')
		}
		c.WaitJob(t, jid, states.JobRunning)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, `PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
debug*       up   infinite      1    mix n3
debug*       up   infinite      2  alloc n[1-2]
debug*       up   infinite      1   idle n4
`},
		{[]string{"-s"}, `PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST
debug*       up   infinite          3/1/0/4 n[1-4]
`},
		{[]string{"-N", "-h"}, "n1             1    debug* alloc \nn2             1    debug* alloc \nn3             1    debug* mix   \nn4             1    debug* idle  \n"},
		{[]string{"-h", "-o", "%D %C %t", "-t", "alloc"}, "1 1/3/0/4 mix\n2 8/0/0/8 alloc\n"},
		{[]string{"-h", "-o", "%N", "-t", "idle,mix"}, "n[3-4]\n"},
	}
	for _, tc := range cases {
		out, errOut, code := c.Run(t, "sinfo", tc.args...)
		if out != tc.want || errOut != "" || code != 0 {
			t.Errorf("sinfo %q: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", tc.args, code, errOut, out, tc.want)
		}
	}
}
