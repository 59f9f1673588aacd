package ctld

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// The simulation entry point (DESIGN.md §6, "Simulation"): the real controller — submit
// handler, eligibility, the plugin's plan, verification, the one apply path, time-limit
// enforcement, completion handler, MinJobAge purge, the SQLite store — run in virtual time
// by a caller (ssim) that owns the clock, with emulated nodes (sim_node.go) instead of
// slurmd. The controller is built with Options.Manual: no loop runs on its own, so between
// two calls of the caller nothing happens and virtual time can jump from event to event.

// SimOptions configure a Sim.
type SimOptions struct {
	// Scheduler plans every cycle, linked in-process (sched/builtin or sched/backfill); nil
	// means sched/builtin.
	Scheduler scheduler.Scheduler
	// StateDir is the StateSaveLocation; "" makes a temporary directory (on /dev/shm when the
	// machine has it, where an fsync costs nothing) that Close removes.
	StateDir string
	// Logger receives the controller's logs; nil discards them.
	Logger *slog.Logger
	// Start is the virtual time (Unix seconds) at which the emulated nodes register.
	Start int64
}

// Sim is a controller in virtual time on emulated nodes. It is not safe for concurrent use:
// one caller drives it.
type Sim struct {
	c      *Controller
	clock  atomic.Int64
	tmpDir string // made by NewSim, removed by Close
	sched  *simPlanStats
	nodes  simNodes
	ctx    context.Context
	root   *wire.Identity // slurmd's identity: the reports of the emulated nodes
}

// SimStart is a job the controller started, as its emulated batch host received it.
type SimStart struct {
	JobID uint32
	Start int64
	Nodes []string
}

// SimEnd is a job whose end the controller recorded.
type SimEnd struct {
	JobID uint32
	End   int64
	// State is the job's final state as squeue -t names it (COMPLETED, TIMEOUT, ...).
	State string
}

// SimJob is a copy of one job the controller holds in memory (Jobs).
type SimJob struct {
	JobID  uint32
	UserID uint32
	Name   string
	// State is as squeue -t names it (PENDING, RUNNING, COMPLETED, TIMEOUT, ...); Reason
	// is the pending reason, or why the job ended.
	State, Reason      string
	Partition          string
	Priority           uint32
	TimeLimit          uint32 // minutes; wire.Infinite for none
	MinNodes, NumTasks uint32
	Submit, Start, End int64
	Nodes              []string
}

// NewSim builds a controller for cfg (a copy is changed: state in the Sim's directory,
// auth/slurm with a key that lives in memory only, and no Prolog, Epilog, PrologSlurmctld or
// EpilogSlurmctld, since emulated nodes run no scripts) and registers every node of
// slurm.conf at opts.Start, as each node's slurmd would.
func NewSim(cfg *conf.Config, opts SimOptions) (*Sim, error) {
	if cfg == nil {
		return nil, errors.New("ctld: no configuration")
	}
	s := &Sim{ctx: context.Background(), root: &wire.Identity{UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), Host: "ssim"}}
	s.clock.Store(opts.Start)
	dir := opts.StateDir
	if dir == "" {
		base := ""
		if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
			base = "/dev/shm"
		}
		d, err := os.MkdirTemp(base, "orbit-sim-")
		if err != nil {
			return nil, err
		}
		dir, s.tmpDir = d, d
	}
	secret := make([]byte, 32)
	rand.Read(secret)
	key, err := auth.NewKey(secret)
	if err != nil {
		s.removeDir()
		return nil, err
	}
	c2 := *cfg
	c2.StateSaveLocation = dir
	c2.AuthType, c2.CredType, c2.AuthInfo = auth.AuthTypeSlurm, auth.CredTypeSlurm, ""
	c2.Prolog, c2.Epilog, c2.PrologSlurmctld, c2.EpilogSlurmctld = "", "", "", ""
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s.sched = &simPlanStats{Scheduler: opts.Scheduler}
	if s.sched.Scheduler == nil {
		s.sched = nil
	}
	o := Options{Config: &c2, Key: key, Logger: log, Now: s.now, ClearState: true, Manual: true}
	if s.sched != nil {
		o.Scheduler = s.sched
	}
	c, err := New(o)
	if err != nil {
		s.removeDir()
		return nil, err
	}
	s.c = c
	s.nodes.init()
	for _, name := range c.t.nodeOrder {
		_, err := c.handleNodeRegistration(s.ctx, &wire.Request{Type: wire.MsgNodeRegistration, Identity: s.root,
			Body: &wire.NodeRegistration{NodeName: name, Addr: "emulated", BootTime: opts.Start, SlurmdStart: opts.Start}})
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("node %s did not register: %v", name, err)
		}
	}
	s.Wanted() // the registrations' wakes: the caller's first Cycle serves them
	return s, nil
}

// now is the controller's clock.
func (s *Sim) now() time.Time { return time.Unix(s.clock.Load(), 0) }

// Now is the virtual time, Unix seconds.
func (s *Sim) Now() int64 { return s.clock.Load() }

// setNow moves the clock to t; virtual time never runs backwards.
func (s *Sim) setNow(t int64) {
	if t > s.clock.Load() {
		s.clock.Store(t)
	}
}

// Submit hands d to the controller's submit handler at virtual time at, as user uid (gid),
// exactly as sbatch's RPC would arrive, and returns the job id. runtime is how long the
// emulated batch host runs the script once launched (seconds; negative: until killed).
func (s *Sim) Submit(d *wire.JobDesc, uid, gid uint32, runtime int64, at int64) (uint32, error) {
	s.setNow(at)
	rep, err := s.c.handleSubmitBatchJob(s.ctx, &wire.Request{Type: wire.MsgSubmitBatchJob, Body: d,
		Identity: &wire.Identity{UID: uid, GID: gid, Host: "ssim"}})
	if err != nil {
		return 0, err
	}
	id := rep.(*wire.SubmitBatchJobReply).JobID
	s.nodes.runtime[id] = runtime
	return id, nil
}

// Cycle runs one scheduling cycle at now, as the scheduling loop does when woken or at its
// interval (priorities, then the plugin's plan, verified and applied), delivers the launches
// to the emulated nodes and returns the jobs it started.
func (s *Sim) Cycle(now int64) ([]SimStart, error) {
	s.setNow(now)
	s.Wanted()
	s.c.recalcPriorities()
	s.c.planCycle()
	if err := s.drainAgent(); err != nil {
		return nil, err
	}
	out := s.nodes.started
	s.nodes.started = nil
	return out, nil
}

// Wanted reports (and clears) whether the controller asked for a scheduling cycle since the
// last call: a submit, a completion, a node registration or an array with more tasks to
// start wakes it, as they wake slurmctld's scheduling loop. The loop's pacing
// (sched_min_interval, batch_sched_delay) is measured in wall time against how long cycles
// take; in virtual time a cycle takes none, so every wake is served at once, as the loop
// serves a lone submit on a quiet cluster.
func (s *Sim) Wanted() bool {
	woke := false
	for _, ch := range []chan struct{}{s.c.kick, s.c.batchKick} {
		select {
		case <-ch:
			woke = true
		default:
		}
	}
	return woke
}

// DepthReached reports whether the last plan stopped at default_queue_depth (the
// scheduling loop's next periodic pass, sched_interval later, goes on).
func (s *Sim) DepthReached() bool {
	return s.sched != nil && s.sched.last.DepthReached != 0
}

// Complete reports, at virtual time at, that job's batch script ended with wait status
// status on its batch host, through the controller's completion handler (as slurmstepd's
// MsgBatchJobComplete).
func (s *Sim) Complete(job uint32, status uint32, at int64) error {
	s.setNow(at)
	return s.nodes.report(s, job, &wire.BatchJobComplete{JobID: job, WaitStatus: status})
}

// Jobs is a copy of every job the controller holds in memory (pending, running, and ended
// ones not yet purged by MinJobAge), in job id order.
func (s *Sim) Jobs() []SimJob {
	s.c.mu.RLock()
	defer s.c.mu.RUnlock()
	out := make([]SimJob, 0, len(s.c.t.jobs))
	for _, j := range s.c.t.jobs {
		out = append(out, simJob(j))
	}
	sortSimJobs(out)
	return out
}

// Close stops the controller, closes the store and removes the state directory NewSim made.
func (s *Sim) Close() error {
	var err error
	if s.c != nil {
		err = s.c.Close()
	}
	s.removeDir()
	return err
}

func (s *Sim) removeDir() {
	if s.tmpDir != "" {
		os.RemoveAll(s.tmpDir) // made by os.MkdirTemp in NewSim, nothing else
		s.tmpDir = ""
	}
}

// simPlanStats passes every call to the plugin and keeps the last plan's statistics.
type simPlanStats struct {
	scheduler.Scheduler
	last scheduler.CycleStats
}

// Schedule asks the plugin for its plan and keeps the plan's statistics.
func (p *simPlanStats) Schedule(ctx context.Context, now int64) (scheduler.Plan, error) {
	plan, err := p.Scheduler.Schedule(ctx, now)
	if err == nil {
		p.last = plan.Stats
	}
	return plan, err
}
