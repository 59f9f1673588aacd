package e2e_test

import (
	"net"
	"os"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestAllocNode_ResolvedPeer: scontrol's AllocNode is the submitting host as the controller
// resolves its address (on loopback, what 127.0.0.1 resolves to: "localhost" on Debian, as
// on the reference), while the job's SLURM_SUBMIT_HOST stays the client's own host name.
func TestAllocNode_ResolvedPeer(t *testing.T) {
	// The finished job must still be listed when scontrol asks, however loaded the machine.
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	want, _ := os.Hostname()
	if names, err := net.LookupAddr("127.0.0.1"); err == nil && len(names) > 0 {
		want = strings.TrimSuffix(names[0], ".")
	}
	host, _ := os.Hostname()
	id := submit(t, c, "-o", "submit_host.out", "--wrap", "echo $SLURM_SUBMIT_HOST")
	c.WaitJob(t, id, states.JobComplete)
	out := showJob(t, c, id)
	if !strings.Contains(out, " AllocNode:Sid="+want+":") {
		t.Errorf("scontrol show job: want AllocNode %s:\n%s", want, out)
	}
	b, _ := os.ReadFile(c.WorkDir + "/submit_host.out")
	if got := strings.TrimSpace(string(b)); got != host {
		t.Errorf("SLURM_SUBMIT_HOST = %q, want the client's host name %q", got, host)
	}
}
