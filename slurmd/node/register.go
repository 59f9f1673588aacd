package node

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

// registerWorkers bounds the registrations in flight at once (a bulk-emulation slurmd may
// host thousands of nodes).
const registerWorkers = 16

// registrationLoop registers every hosted node once, at start, retrying each until the
// controller answers. There is no heartbeat: as in Slurm, the controller pings the nodes
// every SlurmdTimeout/3 (through the forwarding tree) and asks a node to register again
// (RegistrationStatus) after its own restart, while the node is UNKNOWN, and now and then.
func (d *Daemon) registrationLoop() {
	d.registerAllBatched() // register_batch.go
}

// handleRegistrationStatus serves RegistrationStatus (Slurm's
// REQUEST_NODE_REGISTRATION_STATUS), which arrives forwarded, one per hosted node: the node
// registers again, and the answer says whether the controller took the registration.
func (d *Daemon) handleRegistrationStatus(ctx context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.RegistrationStatus)
	if !d.privileged(req) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	if d.nodes[m.NodeName] == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	// Gathered with the other nodes' requests of the same sweep into batches
	// (register_batch.go).
	if err := d.regs.register(ctx, m.NodeName); err != nil {
		d.log.Debug("registration requested by the controller failed", "node", m.NodeName, "err", err)
		return nil, err
	}
	return nil, nil
}

// registerAll registers every hosted node, each retried with backoff until it succeeds or
// the daemon stops.
func (d *Daemon) registerAll() {
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(registerWorkers, len(d.order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c *wire.Client
			defer func() {
				if c != nil {
					c.Close()
				}
			}()
			for name := range work {
				backoff := 100 * time.Millisecond
				for d.ctx.Err() == nil {
					var err error
					if c, err = d.registerOne(c, name); err == nil {
						break
					}
					d.log.Debug("registration failed, retrying", "node", name, "err", err, "delay", backoff)
					select {
					case <-d.ctx.Done():
					case <-time.After(backoff):
					}
					backoff = min(2*backoff, 10*time.Second)
				}
			}
		}()
	}
	for _, name := range d.order {
		select {
		case work <- name:
		case <-d.ctx.Done():
		}
	}
	close(work)
	wg.Wait()
}

// registerOne sends one node's registration on c (dialling a controller when c is nil or
// broken) and terminates the jobs the controller no longer knows there.
func (d *Daemon) registerOne(c *wire.Client, name string) (*wire.Client, error) {
	reg := d.registration(name)
	var err error
	if c == nil {
		if c, err = d.dialController(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	reply := new(wire.NodeRegistrationReply)
	if err := c.Call(ctx, wire.MsgNodeRegistration, reg, reply); err != nil {
		c.Close()
		return nil, err
	}
	for _, job := range reply.TerminateJobs {
		if slices.Contains(reg.RunningJobs, job) {
			d.log.Info("controller does not know job as running here; terminating", "node", name, "job", job)
			d.terminate(name, job, false, false, false)
		}
	}
	return c, nil
}

// dialController connects to the first controller that answers.
func (d *Daemon) dialController() (*wire.Client, error) {
	var last error
	for _, addr := range d.ctlds {
		ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
		c, err := wire.Dial(ctx, "tcp", addr, wire.ClientOptions{MessageTimeout: d.timeout, Signer: d.signer})
		cancel()
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// registration describes a hosted node. Emulated and real nodes alike report the configured
// hardware (Slurm's SlurmdParameters=config_overrides); real detection would add the CPU
// topology from /proc/cpuinfo or hwloc, MemTotal from /proc/meminfo and TmpDisk from statfs
// of TmpFS, and the controller would drain a node reporting less than configured.
func (d *Daemon) registration(name string) *wire.NodeRegistration {
	h := d.nodes[name]
	n := h.node
	r := &wire.NodeRegistration{
		NodeName:       n.Name,
		Hostname:       n.Hostname,
		Addr:           d.addr,
		Version:        version.Slurm,
		CPUs:           uint32(n.CPUs),
		Boards:         uint32(n.Boards),
		Sockets:        uint32(n.Sockets),
		CoresPerSocket: uint32(n.CoresPerSocket),
		ThreadsPerCore: uint32(n.ThreadsPerCore),
		RealMemory:     n.RealMemory,
		TmpDisk:        uint64(n.TmpDisk),
		BootTime:       bootTimeOnce(),
		SlurmdStart:    d.start.Unix(),
		RunningJobs:    spoolJobs(h.spool), // register_batch.go
	}
	r.Arch, r.OS = machineOnce() // machine.go
	r.Load = hostLoad()
	return r
}

// runningJobs lists the jobs with a live slurmstepd in spool, from the steps' state files.
// A step whose script ended counts while its slurmstepd lives (it is still reporting the end
// to the controller), so the controller never takes the job for one whose launch was lost.
func runningJobs(spool string) []uint32 {
	steps, _ := stepd.ListSteps(spool) // unreadable files are skipped: their steps cannot be reached anyway
	var jobs []uint32
	for _, st := range steps {
		if stepd.Alive(st) && !slices.Contains(jobs, st.JobID) {
			jobs = append(jobs, st.JobID)
		}
	}
	return jobs
}

// bootTime is when this machine booted (btime in /proc/stat), 0 if unknown.
func bootTime() int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}
