package node

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// Wide steps (issue 9): srun sends this slurmd one MsgLaunchTasksMany naming every node of
// the step it hosts. The caller and the credential are checked once (the credential's node
// list expanded once, not once per node), each node as a LaunchTasks of its own would be
// (hosted here, prolog), and one slurmstepd runs the tasks of every node that passed: an
// emulating slurmd hosting 2,048 nodes of a step starts one process, not 2,048. The reply
// has one result per node, so srun reports a failed node as before.

// handleLaunchTasksMany starts a step's tasks on several hosted nodes.
func (d *Daemon) handleLaunchTasksMany(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.LaunchTasksMany)
	if err := m.Validate(); err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "%v", err)
	}
	c := &m.Common
	if req.Identity == nil || (req.Identity.UID != c.UserID && !d.privileged(req)) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	if len(c.Argv) == 0 {
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: no command or no tasks")
	}
	rep := &wire.LaunchTasksManyReply{Results: make([]wire.LaunchResult, len(m.Nodes))}
	fail := func(i int, err error) {
		var we *wire.Error
		if !errors.As(err, &we) {
			we = wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: %v", err)
		}
		rep.Results[i].Errno, rep.Results[i].Text = we.Errno, we.Text
	}
	now := time.Now()
	d.mu.Lock()
	killedOn := maps.Clone(d.killed[c.JobID]) // as handleLaunchTasks, per node
	d.mu.Unlock()

	var (
		lc      auth.LaunchCred
		inCred  map[string]bool // the credential's nodes, once one node verified it
		credErr error
	)
	var ok []int
	for i := range m.Nodes {
		n := &m.Nodes[i]
		rep.Results[i].NodeName = n.NodeName
		h := d.nodes[n.NodeName]
		switch {
		case h == nil:
			fail(i, errInvalidNode(n.NodeName))
			continue
		case c.NoAlloc:
			lc, credErr = d.noAllocCaller(req, n.NodeName, c.JobID, c.StepID, c.UserID, c.GroupID)
			if credErr != nil {
				fail(i, credErr)
				continue
			}
		case inCred == nil:
			lc, credErr = d.launchV.VerifyLaunch(c.Cred, n.NodeName)
			if credErr == nil {
				names, _ := hostlist.Expand(lc.NodeList)
				inCred = make(map[string]bool, len(names))
				for _, name := range names {
					inCred[name] = true
				}
			}
		case !inCred[n.NodeName]:
			credErr = fmt.Errorf("%w: Host %s not in credential hostlist %s", auth.ErrLaunchInvalid, n.NodeName, lc.NodeList)
		default:
			credErr = nil
		}
		if credErr != nil {
			d.log.Warn("step launch refused: bad credential", "job", c.JobID, "step", c.StepID, "node", n.NodeName, "err", credErr)
			if errors.Is(credErr, auth.ErrLaunchExpired) {
				fail(i, wire.Errorf(errnoCredentialExpired, "Job credential expired"))
			} else {
				fail(i, wire.Errorf(errnoInvalidCredential, "Invalid job credential"))
			}
			continue
		}
		if lc.JobID != c.JobID || lc.StepID != c.StepID || lc.UID != c.UserID || lc.GID != c.GroupID {
			fail(i, wire.Errorf(errnoInvalidCredential, "Invalid job credential"))
			continue
		}
		if k, ok := killedOn[n.NodeName]; ok && now.Sub(k.at) <= killedMemory {
			fail(i, wire.Errorf(errnoKillJobComplete, "Job already completed"))
			continue
		}
		if wire.IsNoAllocJob(c.JobID) {
			// srun -Z: no job, so no prolog.
		} else if err := d.stepProlog(h, c, lc.NodeList); err != nil { // prolog.go: job, user, workdir only
			fail(i, err)
			continue
		}
		ok = append(ok, i)
	}
	if len(ok) == 0 {
		return rep, nil
	}
	errs := d.startStepStepdMany(m, ok)
	for k, i := range ok {
		if err := errs[k]; err != nil {
			d.log.Error("step launch failed", "job", c.JobID, "step", c.StepID, "node", m.Nodes[i].NodeName, "err", err)
			var f *stepdlaunch.StepFailure
			if errors.As(err, &f) {
				fail(i, wire.Errorf(f.Errno, "%s", f.Text))
			} else {
				fail(i, err)
			}
		}
	}
	return rep, nil
}

// startStepStepdMany writes one launch file for the nodes ok of m (in the first one's spool),
// starts one slurmstepd for them all and waits until it says, node by node, whether the
// tasks run. A single node gets a one-node launch file, exactly as handleLaunchTasks writes.
func (d *Daemon) startStepStepdMany(m *wire.LaunchTasksMany, ok []int) []error {
	errs := make([]error, len(ok))
	all := func(err error) []error {
		for k := range errs {
			errs[k] = err
		}
		return errs
	}
	first := d.nodes[m.Nodes[ok[0]].NodeName]
	l := &stepdlaunch.Step{NodeName: first.node.Name, Spool: first.spool,
		MessageTimeout: int(d.timeout / time.Second), KillWait: int(d.cfg.KillWait),
		LogFile: d.opts.LogFile, Debug: d.opts.Debug, LogLevels: d.logLevels(), PropagateRlimits: d.cfg.PropagateRlimits.Names(),
		TaskProlog: d.cfg.TaskProlog, TaskEpilog: d.cfg.TaskEpilog, TaskPlugin: d.cfg.TaskPlugin,
		CtldAddrs: d.ctlds, KeyPath: d.keyPath, AuthType: d.cfg.AuthType, AuthInfo: d.cfg.AuthInfo}
	if v, found := d.cfg.Get("JobFileAppend"); found {
		l.JobFileAppend = v == "1"
	}
	confined := d.memoryConfined()
	if len(ok) == 1 {
		l.Msg = m.Node(ok[0])
		if confined {
			l.Memory = d.memory(stepMemory(first, &l.Msg), l.Msg.CPUsOnNode) // cgroup.go
		}
	} else {
		l.Msg = m.Common
		l.Msg.NodeName, l.Msg.NodeID = first.node.Name, m.Nodes[ok[0]].NodeID
		for _, i := range ok {
			n := m.Nodes[i]
			h := d.nodes[n.NodeName]
			sn := stepdlaunch.StepNode{Node: n, Spool: h.spool}
			if confined {
				one := m.Node(i)
				sn.Memory = d.memory(stepMemory(h, &one), n.CPUsOnNode)
			}
			l.Nodes = append(l.Nodes, sn)
		}
	}
	path := stepdlaunch.StepPath(first.spool, m.Common.JobID, m.Common.StepID)
	if err := stepdlaunch.WriteStep(path, l); err != nil {
		return all(err)
	}
	defer d.refillSpare() // once this launch is done: a spare starting now would slow it
	cmd, r, err := d.spawnStepd("--step", path, first.node.Name)
	if err != nil {
		return all(err)
	}
	defer r.Close()
	// The stepd starts the nodes' tasks one after another (forks are serialized): the
	// budget grows with the nodes, as srun's wait for the reply does (the request's own
	// MessageTimeout is for a one-node launch).
	r.SetReadDeadline(time.Now().Add(2 * d.timeout * time.Duration(launchBudgetUnits(len(ok)))))
	errs = stepdlaunch.ReadStepReadyAll(r, len(ok))
	started := 0
	for k, err := range errs {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			errs[k] = fmt.Errorf("slurmstepd (pid %d) did not start the tasks in time", cmd.Process.Pid)
		}
		if err == nil {
			started++
		}
	}
	if started == 0 {
		os.Remove(path) // the stepd removes it itself, unless it died first
	}
	d.log.Info("launched step", "job", m.Common.JobID, "step", m.Common.StepID, "node", first.node.Name,
		"nodes", len(ok), "started", started, "stepd_pid", cmd.Process.Pid)
	return errs
}

// launchBudgetUnits is how many launch budgets (2 × MessageTimeout) a launch of n nodes on
// one slurmd may take: one more per 256 nodes (a loaded machine starts a task in tens of
// milliseconds). srun's wait (launch_fanout.go) uses the same, plus one MessageTimeout.
func launchBudgetUnits(n int) int { return 1 + n/256 }
