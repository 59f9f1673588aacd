package main

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Wide launches (issue 9). srun groups the step's nodes by the slurmd that hosts them (the
// address the controller gave for each node) and sends each slurmd one LaunchTasksMany for
// all of its nodes: an emulating slurmd hosting 2,048 nodes gets one message and starts one
// slurmstepd, not 2,048 of each; with one slurmd per node it is one small message per node,
// at most launchParallel at once, so a wide step never holds thousands of connections and
// goroutines in srun for its launch. (Slurm's srun sends one REQUEST_LAUNCH_TASKS down the
// TreeWidth tree of slurmds instead; Orbit's tree forwarding carries only the controller's
// broadcasts, signed by SlurmUser, which a user's srun cannot sign.)
//
// The launch carries the step's environment once (Common.Environment) and each node's own
// variables apart (nodeEnvVars of them, which stepEnv.nodeEnv puts last).
//
// Every task's I/O connection back to srun holds a descriptor for the step's life: Slurm's
// srun raises RLIMIT_NOFILE's soft limit to the hard one for them (rlimits_maximize_nofile).
// The Go runtime does exactly that at start (since Go 1.19), so srun needs no code of its
// own for it.
const launchParallel = 64

// nodeEnvVars is how many variables at the end of stepEnv.nodeEnv are the node's own
// (SLURM_NODEID, SLURM_CPUS_ON_NODE, SLURM_GTIDS, SLURM_TOPOLOGY_ADDR and its pattern), in
// a step without GPUs; nodeEnvCount counts a step's.
const nodeEnvVars = 5

// nodeEnvCount is how many variables at the end of stepEnv.nodeEnv are the node's own in
// step s: a step holding GPUs has its devices on each node too (stepGPUVars).
func nodeEnvCount(s *wire.StepCreateReply) int {
	if stepHasGPUs(s) {
		return nodeEnvVars + len(stepGPUVars)
	}
	return nodeEnvVars
}

// launchGroup is the part of a step one slurmd hosts.
type launchGroup struct {
	addr  string
	nodes []int // indexes into the step's nodes
}

// groupByAddr groups node indexes by slurmd address, in order of first appearance.
func groupByAddr(addrs []string) []*launchGroup {
	var out []*launchGroup
	by := map[string]*launchGroup{}
	for i, a := range addrs {
		g := by[a]
		if g == nil {
			g = &launchGroup{addr: a}
			by[a] = g
			out = append(out, g)
		}
		g.nodes = append(g.nodes, i)
	}
	return out
}

// launchMany is group g's LaunchTasksMany: common holds what every launch shares, envs[i]
// node i's full environment, whose last nodeVars entries are the node's own.
func launchMany(common *wire.LaunchTasks, g *launchGroup, launches []*wire.LaunchTasks, envs [][]string, nodeVars int) *wire.LaunchTasksMany {
	m := &wire.LaunchTasksMany{Common: *common}
	for _, i := range g.nodes {
		l := launches[i]
		env := envs[i]
		m.Nodes = append(m.Nodes, wire.LaunchNode{NodeName: l.NodeName, NodeID: l.NodeID, Ranks: l.Ranks,
			StepGTIDs: l.StepGTIDs, CPUsOnNode: l.CPUsOnNode, Env: env[len(env)-nodeVars:],
			StdOut: l.StdOut, StdErr: l.StdErr, StdIn: l.StdIn})
	}
	return m
}

// launchStep sends the step's launches, one LaunchTasksMany per slurmd, and returns the
// text and errno of a failed node's error ("" when every node runs its tasks) and how many
// nodes failed; each failed node's tasks are marked lost in the relay. common is the launch
// without its node part; envs[i] is node i's environment (stepEnv.nodeEnv).
func (s *session) launchStep(ctx context.Context, step *wire.StepCreateReply, common *wire.LaunchTasks,
	launches []*wire.LaunchTasks, envs [][]string, relay *relay, copts wire.ClientOptions) (string, int32, int) {
	s.printLaunches(step, launches) // verbose.go
	failedNodes := map[int]bool{}
	defer func() { s.printTaskStarts(step, launches, failedNodes) }()
	env0 := envs[0]
	nodeVars := nodeEnvCount(step)
	common.Environment = env0[:len(env0)-nodeVars]
	var wg sync.WaitGroup
	var mu sync.Mutex
	launchErr, launchErrno := "", int32(0)
	failed := func(i int, errno int32, text string) {
		mu.Lock()
		launchErr, launchErrno = fmt.Sprintf("%s: %s", step.Nodes[i], text), errno
		failedNodes[i] = true
		mu.Unlock()
		relay.nodeFailed(uint32(i), launches[i].Ranks)
	}
	inFlight := make(chan struct{}, launchParallel)
	for _, g := range groupByAddr(step.Addrs) {
		m := launchMany(common, g, launches, envs, nodeVars)
		wg.Add(1)
		inFlight <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-inFlight }()
			// slurmd's stepd starts the nodes' tasks one after another: the wait grows with
			// the nodes (one more budget per 256, as slurmd's own wait for its stepd).
			budget := 2*s.c.MessageTimeout*time.Duration(1+len(g.nodes)/256) + s.c.MessageTimeout
			cctx, cancel := context.WithTimeout(ctx, budget)
			defer cancel()
			// wire.Call bounds the exchange by MessageTimeout too: the wait for the reply
			// is this budget, not one MessageTimeout.
			lopts := copts
			lopts.MessageTimeout = budget
			var rep wire.LaunchTasksManyReply
			if err := wire.Call(cctx, "tcp", g.addr, wire.MsgLaunchTasksMany, m, &rep, lopts); err != nil {
				e := cmdclient.AsError(err)
				for _, i := range g.nodes {
					failed(i, e.Errno, e.Text)
				}
				return
			}
			for k, i := range g.nodes {
				switch {
				case k >= len(rep.Results):
					failed(i, wire.ErrnoSlurmError, "no answer for this node")
				case rep.Results[k].Errno != 0:
					failed(i, rep.Results[k].Errno, rep.Results[k].Text)
				}
			}
		}()
	}
	wg.Wait()
	return launchErr, launchErrno, len(failedNodes)
}

// signalStep sends sig to the step's tasks on every node, one message per slurmd. SIGKILL
// is how srun -K ends the step: each node cancels it (SIGTERM, KillWait, SIGKILL), as
// Slurm's step kill does.
func (s *session) signalStep(ctx context.Context, step *wire.StepCreateReply, copts wire.ClientOptions, sig syscall.Signal) {
	s.sendSignal(ctx, step, copts, sig, false)
}

// abortStep kills the step's tasks at once, the step cancelled (srun forcing its end).
func (s *session) abortStep(ctx context.Context, step *wire.StepCreateReply, copts wire.ClientOptions) {
	s.sendSignal(ctx, step, copts, syscall.SIGKILL, true)
}

func (s *session) sendSignal(ctx context.Context, step *wire.StepCreateReply, copts wire.ClientOptions, sig syscall.Signal, abort bool) {
	var wg sync.WaitGroup
	inFlight := make(chan struct{}, launchParallel)
	for _, g := range groupByAddr(step.Addrs) {
		m := &wire.SignalTasks{NodeName: step.Nodes[g.nodes[0]], JobID: step.JobID, StepID: step.StepID, Signal: int32(sig), Abort: abort}
		if len(g.nodes) > 1 {
			for _, i := range g.nodes {
				m.Nodes = append(m.Nodes, step.Nodes[i])
			}
		}
		wg.Add(1)
		inFlight <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-inFlight }()
			cctx, cancel := context.WithTimeout(ctx, s.c.MessageTimeout)
			defer cancel()
			wire.Call(cctx, "tcp", g.addr, wire.MsgSignalTasks, m, nil, copts)
		}()
	}
	wg.Wait()
}
