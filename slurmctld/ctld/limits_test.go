package ctld_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// fakeClock is a controller clock the test moves forward.
type fakeClock struct{ off atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *fakeClock) advance(d time.Duration) { c.off.Add(int64(d)) }

func TestLimits_TimeLimitEndsJobTimeout(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 1, Now: clk.now})
	f.startNodes("n1")
	d := script("sleep 1000")
	d.TimeLimit = 1
	id := f.mustSubmit(d)
	f.waitState(id, states.JobRunning)
	clk.advance(61 * time.Second)
	j := f.waitState(id, states.JobTimeout)
	if states.Reason(j.Reason) != states.FailTimeout || j.ExitCode != 15 {
		t.Errorf("timed out job: reason %s exit %#x", states.Reason(j.Reason), j.ExitCode)
	}
}

func TestHealth_SilentNodeDownJobsNodeFail(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Now: clk.now, Extra: "SlurmdTimeout=10\n"})
	f.startNodes("n1", "n2")
	d := script("sleep 1000")
	d.Requeue = 0 // --no-requeue: a job that may be requeued is (job_lifecycle2_test.go)
	id := f.mustSubmit(d)
	f.waitState(id, states.JobRunning)
	clk.advance(11 * time.Second)
	j := f.waitState(id, states.JobNodeFail)
	if states.Reason(j.Reason) != states.FailDownNode {
		t.Errorf("job on a silent node: reason %s, want NodeDown", states.Reason(j.Reason))
	}
	rep := new(wire.NodeInfoReply)
	if err := f.call(0, wire.MsgNodeInfo, &wire.NodeInfoRequest{NodeNames: []string{"n1"}}, rep); err != nil {
		t.Fatal(err)
	}
	n := rep.Nodes[0]
	if got := states.NodeState(n.State).String(); got != "DOWN*" || n.Reason != "Not responding" {
		t.Errorf("silent node: %s %q, want DOWN* \"Not responding\"", got, n.Reason)
	}
	// ReturnToService=2: registering again brings it back.
	f.node.register("n1", nil)
	rep = new(wire.NodeInfoReply)
	if err := f.call(0, wire.MsgNodeInfo, &wire.NodeInfoRequest{NodeNames: []string{"n1"}}, rep); err != nil {
		t.Fatal(err)
	}
	if got := states.NodeState(rep.Nodes[0].State).String(); got != "IDLE" {
		t.Errorf("node after registering again: %s, want IDLE", got)
	}
}
