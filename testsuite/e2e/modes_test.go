package e2e_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// forEachMode runs body twice as subtests, on a cluster started with opts: "binaries" runs
// the real slurmctld and slurmd processes, "inprocess" runs both daemons in the test process
// (cheaper; an in-process KillController is a clean close, not a SIGKILL).
func forEachMode(t *testing.T, opts cluster.Options, body func(t *testing.T, c *cluster.Cluster)) {
	t.Helper()
	for _, m := range []struct {
		name      string
		inProcess bool
	}{{"binaries", false}, {"inprocess", true}} {
		t.Run(m.name, func(t *testing.T) {
			o := opts
			o.InProcess = m.inProcess
			body(t, cluster.Start(t, o))
		})
	}
}
