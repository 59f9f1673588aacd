package ctld

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// The fields of `scontrol show job` beyond what squeue needs: times Slurm derives from the
// scheduler's view, TRES strings and per-node minimums.

// jobInfoExtra fills the scontrol-only fields of info from j and its description d.
func (c *Controller) jobInfoExtra(j *jobRecord, d *wire.JobDesc, info *wire.JobInfo) {
	s := j.state()
	info.Features = d.Constraint
	info.MinCPUsNode = j.minCPUsPerNode()
	info.SuspendTime = j.SuspendTime
	info.PreSusTime = j.PreSusTime
	info.PreemptableTime, info.PreemptTime = c.preemptTimes(j)
	info.Nice = d.Nice
	if s.IsPending() && j.Priority == 0 {
		// A held job is not eligible: Slurm shows EligibleTime=Unknown until its release.
		info.EligibleTime = 0
	}
	if s.IsPending() && j.EligibleTime <= c.now().Unix() {
		// Nor is a job waiting on a dependency: Slurm zeroes its begin time while the
		// dependency is unmet (or can never be met), so both times print Unknown.
		if dep, _ := c.t.dependency(j, c.now().Unix()); dep != states.WaitNoReason {
			info.EligibleTime = 0
		}
	}
	// AccrueTime: a job accrues age from when it became eligible; a held job never did, nor
	// did one refused at submit (refusedAtSubmit, job_submit.go).
	// Nor did an interactive job its allocate RPC started (Slurm accrues only in the
	// scheduler's passes): Orbit's start follows that RPC in the same second.
	startedByRPC := j.isInteractive() && !s.IsPending() && j.StartTime == j.SubmitTime
	if !(s.IsPending() && j.Priority == 0) && !(s.Base() == states.JobFailed && j.Reason == uint32(states.FailBadConstraints)) && !startedByRPC {
		info.AccrueTime = info.EligibleTime // 0 (Unknown) for a job still waiting on a dependency
	}
	// LastSchedEval: a job that ran was last looked at when it started; a pending one when
	// the last scheduler pass that reached it ran (sched_eval.go).
	info.LastSchedEval = j.SubmitTime
	if j.StartTime != 0 && !s.IsPending() {
		info.LastSchedEval = j.StartTime
	}
	if s.IsPending() && !s.IsCompleting() {
		info.LastSchedEval, info.SchedBackfill = c.plug.eval.pending(j)
	}
	info.TRES = c.jobTRES(j)
	jobInfoSite(d, info)
	jobInfoStored(d, info)
	if total, detail := c.jobGresDetail(j); total != "" { // gres.go
		info.GresTotal, info.GresDetail = total, strings.Join(detail, "|")
	}
}

// jobTRES is the job's TRES string: what it holds while it has nodes, else what it asks for.
// Without a memory request a pending job asks for a whole node's memory, as in Slurm.
func (c *Controller) jobTRES(j *jobRecord) string {
	var b strings.Builder
	if len(j.Nodes) > 0 && j.holdsNodes() || len(j.Nodes) > 0 && j.state().IsFinished() {
		cpus := j.numCPUs()
		b.WriteString("cpu=" + strconv.FormatUint(uint64(cpus), 10))
		if mem := j.MemAlloc * uint64(len(j.Nodes)); mem > 0 {
			b.WriteString(",mem=" + memsize.FormatMB(mem))
		}
		b.WriteString(",node=" + strconv.Itoa(len(j.Nodes)))
		b.WriteString(",billing=" + strconv.FormatUint(uint64(cpus), 10))
		return joinTRES(b.String(), c.jobGresTRES(j, true)) // gres.go
	}
	cpus := j.requestedCPUs()
	nodes := max(j.MinNodes, 1)
	var mem uint64
	switch {
	case j.MemPerNode > 0:
		mem = j.MemPerNode * uint64(nodes)
	case j.MemPerCPU > 0:
		mem = j.MemPerCPU * uint64(cpus)
	default:
		mem = c.defaultJobMem(j) * uint64(nodes)
	}
	b.WriteString("cpu=" + strconv.FormatUint(uint64(cpus), 10))
	if mem > 0 {
		b.WriteString(",mem=" + memsize.FormatMB(mem))
	}
	b.WriteString(",node=" + strconv.FormatUint(uint64(nodes), 10))
	b.WriteString(",billing=" + strconv.FormatUint(uint64(cpus), 10))
	return joinTRES(b.String(), c.jobGresTRES(j, false))
}

// defaultJobMem is the memory per node a job without a memory request asks for: its
// partition's (first) node's.
func (c *Controller) defaultJobMem(j *jobRecord) uint64 {
	if p := c.t.parts[j.Partition]; p != nil && len(p.nodes) > 0 {
		if n := c.t.nodes[p.nodes[0]]; n != nil {
			return n.conf.RealMemory
		}
	}
	return 0
}

// maxSwitchWait is SchedulerParameters' max_switch_wait default: Slurm caps a job's
// --switches wait there (and shows the cap when the job gave none).
const maxSwitchWait = 300

// jobInfoSite fills the site options' fields (--threads-per-core, --tmp, --cpu-freq,
// --switches, ...) as the job asked for them; 0 is "not given" for each.
func jobInfoSite(d *wire.JobDesc, info *wire.JobInfo) {
	if d == nil {
		return
	}
	given := func(v uint32) uint32 {
		if v == wire.NoVal {
			return 0
		}
		return v
	}
	info.ThreadsPerCore, info.CoresPerSocket = given(d.ThreadsPerCore), given(d.CoresPerSocket)
	info.SocketsPerNode, info.NTasksPerCore = given(d.SocketsPerNode), given(d.NTasksPerCore)
	info.CPUFreqMin, info.CPUFreqMax, info.CPUFreqGov = given(d.CPUFreqMin), given(d.CPUFreqMax), given(d.CPUFreqGov)
	if d.TmpDiskMB != wire.NoVal64 {
		info.TmpDiskMB = d.TmpDiskMB
	}
	info.DelayBoot = given(d.DelayBoot)
	if n := given(d.ReqSwitch); n > 0 {
		info.ReqSwitch = n
		info.SwitchWait = maxSwitchWait
		if w := given(d.SwitchWait); w > 0 && w < maxSwitchWait {
			info.SwitchWait = w
		}
	}
	info.SpreadJob = d.SpreadJob
}

// jobInfoStored fills the fields of the options the controller only stores and shows
// (--network, --mcs-label, --bb, --container, --power, --gpu-bind, ...), --gres-flags and
// --kill-on-invalid-dep.
func jobInfoStored(d *wire.JobDesc, info *wire.JobInfo) {
	if d == nil {
		return
	}
	info.KillInvalidDep, info.GresFlags = d.KillInvalid, d.GresFlags
	info.Network, info.Contiguous, info.MCSLabel = d.Network, d.Contiguous, d.MCSLabel
	info.BurstBuffer, info.Container, info.PowerFlags = d.BurstBuffer, d.Container, d.PowerFlags
	info.ClusterFeatures, info.Prefer = d.ClusterFeatures, d.Prefer
	info.TresBind, info.TresFreq, info.Reboot = d.TresBind, d.TresFreq, d.Reboot
	info.TresPerJob, info.TresPerTask, info.CpusPerTres, info.MemPerTres = d.TresPerJob, d.TresPerTask, d.CpusPerTres, d.MemPerTres
	if d.NTasksPerSocket != wire.NoVal {
		info.NTasksPerSocket = d.NTasksPerSocket
	}
}
