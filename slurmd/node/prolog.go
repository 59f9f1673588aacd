package node

import (
	"context"
	"errors"
	"fmt"
	"os/user"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Prolog (slurm.conf) runs once per job per node, before the job's first task starts there:
// at the batch launch on the batch host, at the first srun step launch on the other nodes
// (Slurm's default; see PrologFlags below). Concurrent launches of the same job wait for the
// one prolog. A prolog that fails (nonzero exit, signal, PrologEpilogTimeout) fails the
// launch with ESLURMD_PROLOG_FAILED ("Job prolog failed"), every later launch of that job
// incarnation on the node too, and the node reports it to the controller (PrologComplete),
// which drains the node with reason "Prolog error" and requeues the job held ("launch
// failed requeued held") or, when it may not be requeued, cancels it — as Slurm's slurmd
// does with send_registration_msg(ESLURMD_PROLOG_FAILED) and REQUEST_JOB_REQUEUE.
//
// PrologFlags: Serial runs prologs and epilogs of this slurmd one at a time. Alloc (run at
// allocation on every node) and Contain/X11 are not implemented: the prolog runs at first
// launch, and slurmd says so in its log once at the first prolog.

// errnoPrologFailed and errnoEpilogFailed are ESLURMD_PROLOG_FAILED and ESLURMD_EPILOG_FAILED.
const (
	errnoPrologFailed int32 = 4022
	errnoEpilogFailed int32 = 4023
)

// nodeJob names one job on one hosted node.
type nodeJob struct {
	node string
	job  uint32
}

// jobEnv is what a prolog or epilog learns about its job (Slurm's job_env_t plus the
// credential fields prep/script puts into the environment).
type jobEnv struct {
	JobID, UID, GID uint32
	UserName        string
	NodeList        string
	Partition       string
	Account         string
	WorkDir         string
	NumTasks        uint32
	NumNodes        uint32
	CPUsPerNode     string // Slurm's compressed form, e.g. "2(x3),1"
	StdOut          string
	StdErr          string
	StdIn           string
	Restarts        uint32
	ArrayJobID      uint32
	ArrayTaskID     uint32
	haveRestarts    bool // Restarts is known (a batch launch); a step launch does not carry it
}

// prologRun is one job incarnation's prolog on one node.
type prologRun struct {
	restarts uint32
	done     chan struct{}
	res      scriptResult
}

// jobScripts is one Daemon's record of prologs and epilogs.
type jobScripts struct {
	mu      sync.Mutex
	serial  sync.Mutex // PrologFlags=Serial
	prologs map[nodeJob]*prologRun
	envs    map[nodeJob]*jobEnv    // what the last launch said about the job, for its epilog
	epilogs map[nodeJob]epilogMark // incarnations whose epilog ran or runs here
	warned  bool
}

// scriptsOf holds the jobScripts of every Daemon of this process (tests run several).
var scriptsOf = struct {
	sync.Mutex
	m map[*Daemon]*jobScripts
}{m: map[*Daemon]*jobScripts{}}

func (d *Daemon) scripts() *jobScripts {
	scriptsOf.Lock()
	defer scriptsOf.Unlock()
	s := scriptsOf.m[d]
	if s == nil {
		s = &jobScripts{prologs: map[nodeJob]*prologRun{}, envs: map[nodeJob]*jobEnv{}, epilogs: map[nodeJob]epilogMark{}}
		scriptsOf.m[d] = s
	}
	return s
}

// prologFlag reports whether PrologFlags lists flag (case-insensitive, as Slurm parses it).
func (d *Daemon) prologFlag(flag string) bool {
	for _, f := range strings.Split(d.cfg.PrologFlags, ",") {
		if strings.EqualFold(strings.TrimSpace(f), flag) {
			return true
		}
	}
	return false
}

// batchJobEnv is the prolog's view of a batch launch.
func batchJobEnv(m *wire.LaunchBatchJob) *jobEnv {
	e := &jobEnv{
		JobID: m.JobID, UID: m.UserID, GID: m.GroupID, UserName: m.UserName, NodeList: m.NodeList,
		Partition: m.Partition, Account: m.Account, WorkDir: m.WorkDir, NumTasks: m.NumTasks,
		NumNodes: uint32(len(m.CPUsPerNode)), CPUsPerNode: compressCounts(m.CPUsPerNode),
		StdOut: m.StdOut, StdErr: m.StdErr, StdIn: m.StdIn, Restarts: m.Restarts, haveRestarts: true,
		ArrayJobID: m.ArrayJobID, ArrayTaskID: m.ArrayTaskID,
	}
	if e.NumTasks == wire.NoVal {
		e.NumTasks = 0
	}
	return e
}

// stepJobEnv is the prolog's view of an srun step launch. Only what the controller signed
// (job, user, node list) is used: the step's environment comes from the user, and Slurm
// never lets user-controlled values into a script that runs as root.
func stepJobEnv(m *wire.LaunchTasks, credNodes string) *jobEnv {
	return &jobEnv{JobID: m.JobID, UID: m.UserID, GID: m.GroupID, NodeList: credNodes, WorkDir: m.WorkDir}
}

// batchProlog runs the prolog for a batch launch (hook in launch.go).
func (d *Daemon) batchProlog(h *hosted, m *wire.LaunchBatchJob) error {
	return d.prolog(h, batchJobEnv(m))
}

// stepProlog runs the prolog for an srun step launch whose credential (naming credNodes)
// was verified (hook in step_launch.go).
func (d *Daemon) stepProlog(h *hosted, m *wire.LaunchTasks, credNodes string) error {
	return d.prolog(h, stepJobEnv(m, credNodes))
}

// prolog runs the job's prolog on h unless it already ran (or runs) for this incarnation;
// it returns the launch's error when the prolog failed. The env is remembered for the
// job's epilog either way.
func (d *Daemon) prolog(h *hosted, e *jobEnv) error {
	s := d.scripts()
	k := nodeJob{node: h.node.Name, job: e.JobID}
	s.mu.Lock()
	if old := s.envs[k]; old == nil || e.haveRestarts || !old.haveRestarts {
		s.envs[k] = e
	}
	if d.cfg.Prolog == "" {
		s.mu.Unlock()
		return nil
	}
	r := s.prologs[k]
	switch {
	case r != nil && (!e.haveRestarts || r.restarts >= e.Restarts):
		s.mu.Unlock()
		<-r.done
		if r.res.failed() {
			return wire.Errorf(errnoPrologFailed, "Job prolog failed")
		}
		return nil
	case r == nil && len(liveSteps(h, e.JobID)) > 0:
		// A slurmd restarted while the job ran here: its prolog ran before the restart.
		s.mu.Unlock()
		return nil
	}
	r = &prologRun{restarts: e.Restarts, done: make(chan struct{})}
	s.prologs[k] = r
	warn := !s.warned && (d.prologFlag("Alloc") || d.prologFlag("Contain") || d.prologFlag("X11"))
	s.warned = s.warned || warn
	s.mu.Unlock()
	if warn {
		d.log.Warn("PrologFlags Alloc/Contain/X11 are not implemented: the prolog runs at the job's first launch on each node",
			"PrologFlags", d.cfg.PrologFlags)
	}

	r.res = d.runJobScript(h, d.cfg.Prolog, prologEnv(d, h, e, false))
	close(r.done)
	if !r.res.failed() {
		return nil
	}
	d.log.Error(fmt.Sprintf("[job %d] prolog failed %s", e.JobID, r.res), "node", h.node.Name,
		"script", r.res.path, "output", r.res.output)
	rep := &wire.PrologComplete{JobID: e.JobID, NodeName: h.node.Name, Restarts: e.Restarts,
		Status: int32(r.res.status), TimedOut: r.res.timedOut}
	if !e.haveRestarts {
		rep.Restarts = wire.NoVal // a step launch: whichever incarnation runs
	}
	go d.reportScript(wire.MsgPrologComplete, rep)
	return wire.Errorf(errnoPrologFailed, "Job prolog failed")
}

// runJobScript runs a Prolog or Epilog pattern, one at a time with PrologFlags=Serial.
func (d *Daemon) runJobScript(h *hosted, pattern string, env []string) scriptResult {
	if d.prologFlag("Serial") {
		s := d.scripts()
		s.serial.Lock()
		defer s.serial.Unlock()
	}
	return runScripts(pattern, env, h.spool, d.scriptTimeout())
}

// prologEnv is the environment of a prolog or epilog, built from nothing as Slurm's
// prep/script plugin builds it (src/plugins/prep/script/prep_script_slurmd.c, _build_env).
func prologEnv(d *Daemon, h *hosted, e *jobEnv, epilog bool) []string {
	var env []string
	set := func(k, v string) { env = append(env, k+"="+v) }
	u32 := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	set("SLURMD_NODENAME", h.node.Name)
	set("SLURM_CONF", d.opts.ConfPath)
	set("SLURM_CLUSTER_NAME", d.cfg.ClusterName)
	set("SLURM_JOB_ID", u32(e.JobID))
	set("SLURM_JOB_UID", u32(e.UID))
	set("SLURM_JOB_GID", u32(e.GID))
	set("SLURM_JOB_WORK_DIR", e.WorkDir)
	name := e.UserName
	if name == "" {
		if u, err := user.LookupId(u32(e.UID)); err == nil {
			name = u.Username
		}
	}
	set("SLURM_JOB_USER", name)
	set("SLURM_JOBID", u32(e.JobID))
	set("SLURM_UID", u32(e.UID))
	if e.NodeList != "" {
		set("SLURM_NODELIST", e.NodeList)
	}
	if epilog {
		set("SLURM_SCRIPT_CONTEXT", "epilog_slurmd")
	} else {
		set("SLURM_SCRIPT_CONTEXT", "prolog_slurmd")
	}
	// The credential's fields.
	if e.Account != "" {
		set("SLURM_JOB_ACCOUNT", e.Account)
	}
	if e.CPUsPerNode != "" {
		set("SLURM_JOB_CPUS_PER_NODE", e.CPUsPerNode)
	}
	if e.NumTasks != 0 {
		set("SLURM_JOB_NTASKS", u32(e.NumTasks))
	}
	if e.NumNodes != 0 {
		set("SLURM_JOB_NUM_NODES", u32(e.NumNodes))
	}
	if e.Partition != "" {
		set("SLURM_JOB_PARTITION", e.Partition)
	}
	if e.haveRestarts {
		set("SLURM_JOB_RESTART_COUNT", u32(e.Restarts))
	}
	if e.StdErr != "" {
		set("SLURM_JOB_STDERR", e.StdErr)
	}
	if e.StdIn != "" {
		set("SLURM_JOB_STDIN", e.StdIn)
	}
	if e.StdOut != "" {
		set("SLURM_JOB_STDOUT", e.StdOut)
	}
	return env
}

// compressCounts is Slurm's compressed count list ("2(x3),1").
func compressCounts(v []uint32) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(v[i]), 10))
		if j-i > 1 {
			fmt.Fprintf(&b, "(x%d)", j-i)
		}
		i = j
	}
	return b.String()
}

// scriptReportAttempts bounds how often a prolog or epilog result is sent to the controller.
const scriptReportAttempts = 10

// reportScript tells the controller how a prolog or epilog ended, retrying while it cannot
// be reached (Slurm's slurmd retries these too: the controller must learn of the failure).
func (d *Daemon) reportScript(t wire.MsgType, msg any) {
	for attempt := 1; attempt <= scriptReportAttempts; attempt++ {
		var err error
		for _, addr := range d.ctlds {
			ctx, cancel := context.WithTimeout(d.ctx, d.timeout+time.Second)
			err = wire.Call(ctx, "tcp", addr, t, msg, nil, wire.ClientOptions{MessageTimeout: d.timeout, Signer: d.signer})
			cancel()
			var we *wire.Error
			if err == nil || errors.As(err, &we) && we.Unwrap() == nil {
				return // acknowledged, or refused: repeating cannot change the answer
			}
		}
		d.log.Warn("cannot report prolog/epilog result to slurmctld", "attempt", attempt, "err", err)
		select {
		case <-d.ctx.Done():
			return
		case <-time.After(time.Duration(attempt) * time.Second):
		}
	}
}
