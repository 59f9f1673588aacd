package e2e_test

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestAllocWait_ControllerRestart: salloc and srun waiting for their allocation keep waiting
// while the controller is killed and started again, as Slurm's wait for their grant; once
// the held jobs are released they run their commands. Before, they gave up at the first
// failed look and left their jobs pending with nobody to use them.
func TestAllocWait_ControllerRestart(t *testing.T) {
	// A short MessageTimeout: the commands' own connect retries (MessageTimeout times, a
	// second apart) end well before the controller is back. Not shorter: the allocate RPC
	// answers after a scheduling cycle, which a loaded machine may take seconds to run.
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "MessageTimeout=4\n"})
	type waiter struct {
		name   string
		errOut *syncBuffer
		done   chan error
	}
	var ws []waiter
	for _, w := range []struct{ cmd, name string }{{"salloc", "waitsalloc"}, {"srun", "waitsrun"}} {
		errOut := new(syncBuffer)
		cmd := exec.Command(testbin.Path(t, w.cmd), "-H", "-J", w.name, "true")
		cmd.Env, cmd.Dir, cmd.Stderr = commandEnv(c), c.WorkDir, errOut
		done := startBackground(t, cmd)
		ws = append(ws, waiter{w.name, errOut, done})
	}
	// Both commands have their answer (they say they wait) before the controller goes.
	waitFor(t, "both allocations pending", func() bool {
		return strings.Contains(ws[0].errOut.String(), "salloc: Pending job allocation") &&
			strings.Contains(ws[1].errOut.String(), "queued and waiting for resources")
	})
	c.KillController(t)
	time.Sleep(7 * time.Second) // longer than a look's connect retries
	c.RestartController(t)
	for _, w := range ws {
		id := jobNamed(t, c, w.name)
		if _, errOut, code := c.Run(t, "scontrol", "release", strconv.Itoa(int(id))); code != 0 {
			t.Fatalf("scontrol release %d: exit %d, %s", id, code, errOut)
		}
		var err error
		select {
		case err = <-w.done:
			w.done <- err
		case <-time.After(60 * time.Second):
			t.Fatalf("%s did not end after its release; stderr %q", w.name, w.errOut.String())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			t.Errorf("%s: %v; stderr %q", w.name, err, w.errOut.String())
		}
		if w.name == "waitsalloc" && !strings.Contains(w.errOut.String(), "salloc: Granted job allocation "+strconv.Itoa(int(id))+"\n") {
			t.Errorf("salloc's stderr %q lacks its grant", w.errOut.String())
		}
		if j := c.WaitJob(t, id, states.JobComplete); j == nil {
			t.Errorf("job %d did not complete", id)
		}
	}
}
