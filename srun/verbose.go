package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// srun -v: the lines Slurm 22.05's srun prints at verbose level about its job and step
// (the job's allocation, the launch on each node, each node's start and each exit
// notification), in its words, taken from the reference. Its debug levels (-vv and more)
// print the same lines and Slurm's debug ones, which Orbit does not.

// verbose says whether srun runs with -v or more (and not -Q).
func (s *session) verbose() bool {
	return s.opts != nil && s.opts.spec != nil && s.opts.spec.Verbose > 0 && !s.opts.spec.Quiet
}

// verbosef prints one verbose line.
func (s *session) verbosef(format string, args ...any) {
	if s.verbose() {
		fmt.Fprintf(s.stderr, "srun: "+format+"\n", args...)
	}
}

// printJobInformation is Slurm's _print_job_information: the allocation srun runs in, from
// the grant or, inside an existing allocation, from the controller.
func (s *session) printJobInformation(ctx context.Context, info *wire.JobAllocInfo) {
	if !s.verbose() {
		return
	}
	if info == nil {
		info = new(wire.JobAllocInfo)
		if err := s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: s.jobID}, info); err != nil {
			return // the step's creation reports what is wrong with the job
		}
	}
	s.verbosef("jobid %d: nodes(%d):`%s', cpu counts: %s", info.JobID, len(info.Nodes), info.NodeList, cpuCounts(info.CPUsPerNode))
}

// cpuCounts is Slurm's run-length form of CPUs per node: "64(x2),32(x1)".
func cpuCounts(cpus []uint32) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i + 1
		for j < len(cpus) && cpus[j] == cpus[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d(x%d)", cpus[i], j-i)
		i = j
	}
	return b.String()
}

// cpuBindTypeText is slurm_sprint_cpu_bind_type of --cpu-bind: its flags in Slurm's order,
// "(null type)" when none is set.
func cpuBindTypeText(b *compatopts.CPUBind) string {
	if b == nil {
		return "(null type)"
	}
	var flags []string
	if b.Verbose {
		flags = append(flags, "verbose")
	}
	if b.To != "" {
		flags = append(flags, b.To)
	}
	if t := strings.TrimSuffix(b.Type, ":"); t != "" {
		flags = append(flags, t)
	}
	if len(flags) == 0 {
		return "(null type)"
	}
	return strings.Join(flags, ",")
}

// printLaunches is what Slurm's srun says as it launches the step: the binding, and the
// tasks each node is to start.
func (s *session) printLaunches(step *wire.StepCreateReply, launches []*wire.LaunchTasks) {
	if !s.verbose() {
		return
	}
	var site *jobspec.SiteOptions
	if s.opts.spec != nil {
		site = &s.opts.spec.Site
	}
	text := cpuBindTypeText(s.opts.cpuBind)
	if site != nil {
		b, oneThread := stepCPUBind(s.opts.cpuBind, site, hasVar(os.Environ(), "SLURM_THREADS_PER_CORE")) // bind.go
		if text = cpuBindTypeText(b); oneThread {
			text += ",one_thread"
		}
	}
	s.verbosef("launch/slurm: launch_p_step_launch: CpuBindType=%s", text)
	for i, node := range step.Nodes {
		s.verbosef("launching StepId=%d.%d on host %s, %d tasks: %s", step.JobID, step.StepID, node,
			len(launches[i].Ranks), taskList(launches[i].Ranks))
	}
	s.verbosef("route/default: init: route default plugin loaded")
}

// taskList is a node's task ids as Slurm's hostlist ranges them: "0", "[0-2]", "[0,2]".
func taskList(ranks []uint32) string {
	ids := make([]string, len(ranks))
	for i, r := range ranks {
		ids[i] = fmt.Sprint(r)
	}
	return hostlist.Compress(ids)
}

// printTaskStarts is Slurm's _task_start for each node that runs its tasks.
func (s *session) printTaskStarts(step *wire.StepCreateReply, launches []*wire.LaunchTasks, failed map[int]bool) {
	for i, node := range step.Nodes {
		if !failed[i] {
			s.verbosef("launch/slurm: _task_start: Node %s, %d tasks started", node, len(launches[i].Ranks))
		}
	}
}

// tasksWord is Slurm's _taskstr: "task" for one, "tasks" for more.
func tasksWord(n int) string {
	if n == 1 {
		return "task"
	}
	return "tasks"
}
