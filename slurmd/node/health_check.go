package node

import (
	"context"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// HealthCheckProgram as Slurm 22.05's slurmd runs it (run_script_health_check): when both
// HealthCheckProgram and HealthCheckInterval are set, once for each hosted node when slurmd
// starts, before it registers, and again whenever the controller asks (MsgHealthCheck, every
// HealthCheckInterval to the nodes HealthCheckNodeState selects; node_health_check.go in the
// controller). The program runs as slurmd's user with no arguments and an environment of
// SLURMD_NODENAME alone, for at most 60 seconds; its exit status is only logged ("health_check
// failed: rc:N output:..."): the program itself drains or resumes the node, typically with
// scontrol, as NHC does.

// healthCheckTimeout is Slurm's fixed bound on one run (max_wait 60 s).
const healthCheckTimeout = 60 * time.Second

// healthChecks tracks the runs under way, one at most per node: a request arriving while the
// node's previous run still goes is answered and dropped.
type healthChecks struct {
	mu      sync.Mutex
	running map[string]bool
}

// healthCheckConfigured says whether slurmd runs the program at all.
func (d *Daemon) healthCheckConfigured() bool {
	return d.cfg.HealthCheckProgram != "" && d.cfg.HealthCheckInterval != 0
}

// handleHealthCheck serves MsgHealthCheck: success at once, the run in the background.
func (d *Daemon) handleHealthCheck(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.HealthCheck)
	if !d.privileged(req) {
		return nil, wire.Errorf(errnoUserIDMissing, "Invalid user id")
	}
	if d.nodes[m.NodeName] == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if !d.healthCheckConfigured() {
		return nil, nil
	}
	d.health.mu.Lock()
	if d.health.running == nil {
		d.health.running = map[string]bool{}
	}
	busy := d.health.running[m.NodeName]
	d.health.running[m.NodeName] = true
	d.health.mu.Unlock()
	if busy {
		return nil, nil
	}
	go func() { // bounded by healthCheckTimeout; not waited for by Close
		d.runHealthCheck(m.NodeName)
		d.health.mu.Lock()
		delete(d.health.running, m.NodeName)
		d.health.mu.Unlock()
	}()
	return nil, nil
}

// healthCheckAtStart runs the program for every hosted node before slurmd registers, as
// Slurm's slurmd does once at startup (a bounded number at a time for an emulating slurmd).
func (d *Daemon) healthCheckAtStart() {
	if !d.healthCheckConfigured() {
		return
	}
	sem := make(chan struct{}, forwardWorkers)
	var wg sync.WaitGroup
	for _, name := range d.order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			d.runHealthCheck(name)
			<-sem
		}()
	}
	wg.Wait()
}

// runHealthCheck runs HealthCheckProgram once for node and logs a failure as Slurm does.
func (d *Daemon) runHealthCheck(node string) {
	r := runScript(d.cfg.HealthCheckProgram, []string{"SLURMD_NODENAME=" + node}, "/", healthCheckTimeout)
	if !r.failed() {
		d.log.Debug("health check passed", "node", node)
		return
	}
	ws := syscall.WaitStatus(r.status)
	switch {
	case ws.Signaled():
		d.log.Error("health_check killed by signal", "node", node, "signal", int(ws.Signal()), "output", r.output)
	default:
		d.log.Error("health_check failed", "node", node, "rc", ws.ExitStatus(), "output", r.output)
	}
}
