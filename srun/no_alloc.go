package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// srun -Z (--no-allocate) runs a step on the --nodelist nodes without a job, as Slurm's
// srun does for root and SlurmUser: the job id is made up in Slurm's no-allocate range
// (wire.MinNoAllocJobID..MaxNoAllocJobID) and the step id at random, the tasks are spread
// evenly over the nodes, and each node's slurmd runs them on the
// caller's word, without a credential, refusing anyone else ("Access/permission denied").
// The controller is only asked where the nodes' slurmd listen, and hears nothing of the
// step; the tasks have no SLURM_JOB_ID (noAllocUnset).

// checkNoAlloc prints what Slurm's srun refuses with -Z and says whether there was any.
func checkNoAlloc(js *jobspec.JobSpec, stderr io.Writer) bool {
	if js == nil || !js.NoAllocate {
		return false
	}
	bad := false
	say := func(msg string) {
		fmt.Fprintf(stderr, "srun: error: %s\n", msg)
		bad = true
	}
	if js.NodeList == "" {
		say("must specify a node list with -Z, --no-allocate.")
	}
	if js.Exclude != "" {
		say("can not specify --exclude list with -Z, --no-allocate.")
	}
	if js.Relative != jobspec.NoVal {
		say("do not specify -r,--relative with -Z,--no-allocate.")
	}
	return bad
}

// noAllocJobID is a job id in Slurm's no-allocate range.
func noAllocJobID() uint32 {
	return wire.MinNoAllocJobID + rand.Uint32N(wire.MaxNoAllocJobID-wire.MinNoAllocJobID+1)
}

// noAllocUnset are the job's variables a no-allocate step's tasks do not get (the
// reference's srun -Z env lacks them).
var noAllocUnset = map[string]bool{
	"SLURM_JOB_ID": true, "SLURM_JOBID": true, "SLURM_JOB_NUM_NODES": true,
	"SLURM_JOB_CPUS_PER_NODE": true, "SLURM_JOB_PARTITION": true, "SLURM_CPUS_ON_NODE": true,
}

// noAllocStep makes up the step srun -Z launches: the --nodelist nodes (each once), the
// tasks spread over them, and where each node's slurmd listens.
func (s *session) noAllocStep(ctx context.Context) (*wire.StepCreateReply, int) {
	o := s.opts
	hl, err := hostlist.Parse(o.nodelist)
	if err != nil || hl.Count() == 0 || hl.Count() > hostlist.MaxExpand {
		fmt.Fprintf(s.stderr, "srun: error: Invalid node list `%s' specified\n", o.nodelist)
		fmt.Fprintln(s.stderr, "srun: error: Job creation failure.")
		return nil, s.codes.Error
	}
	hl.Uniq()
	nodes := hl.Hosts()
	ntasks := o.ntasks
	if ntasks == 0 {
		ntasks = uint32(len(nodes))
	}
	var info wire.NodeInfoReply
	if err := s.call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{NodeNames: nodes}, &info); err != nil {
		fmt.Fprintf(s.stderr, "srun: error: Unable to find the nodes' addresses: %s\n", cmdclient.AsError(err).Text)
		return nil, s.codes.Error
	}
	addr := map[string]string{}
	for _, n := range info.Nodes {
		addr[n.Name] = n.Addr
	}
	step := &wire.StepCreateReply{JobID: s.jobID, StepID: rand.Uint32N(1 << 31), NumTasks: ntasks,
		CPUsPerTask: max(o.cpusPerTask, 1), KillWait: uint32(s.c.Conf.KillWait), JobName: stepName(o),
		ClusterName: s.c.Conf.ClusterName}
	// The tasks are spread evenly, the first nodes taking one more (7 over 3: 3,2,2).
	used := min(uint32(len(nodes)), ntasks)
	for i, name := range nodes[:used] {
		a, ok := addr[name]
		if !ok || a == "" {
			fmt.Fprintf(s.stderr, "srun: error: Invalid node name specified: %s\n", name)
			return nil, s.codes.Error
		}
		n := ntasks / used
		if uint32(i) < ntasks%used {
			n++
		}
		step.Nodes, step.Addrs = append(step.Nodes, name), append(step.Addrs, a)
		step.Tasks, step.CPUsOnNode = append(step.Tasks, n), append(step.CPUsOnNode, n)
	}
	step.NodeList = hostlist.Compress(step.Nodes)
	step.JobNodeList, step.JobCPUs = step.NodeList, step.CPUsOnNode
	if u, err := userdb.Current(); err == nil {
		step.UserName = u.Username
	}
	if len(s.c.Addrs) == 0 {
		return step, 0
	}
	if host, port, err := net.SplitHostPort(s.c.Addrs[0]); err == nil {
		step.CtldAddr = host
		if p, err := strconv.ParseUint(port, 10, 32); err == nil {
			step.CtldPort = uint32(p)
		}
	}
	return step, 0
}
