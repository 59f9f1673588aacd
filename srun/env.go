package main

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// stepEnv is what srun knows about the step and its own side of it, to build each node's
// task environment.
type stepEnv struct {
	base      []string // srun's own environment
	step      *wire.StepCreateReply
	uid, gid  uint32
	commHost  string
	commPort  int
	submitDir string
	submitHos string
	confPath  string
	umask     int
	label     bool
	cpt       uint32 // -c as given (0 = not given)
	inAlloc   bool   // the step runs in an existing allocation
	noAlloc   bool   // srun -Z: no job (noAllocUnset)
	// tasksPerNode is srun's --ntasks-per-node after its checks (0: none, or dropped).
	tasksPerNode uint32
	jobName      string // inside one, the step's SLURM_JOB_NAME: srun's job name
	// site is srun's own --distribution, --mem-bind, --hint and --threads-per-core (from
	// its command line or the SLURM_* input variables of the allocation); bind.go turns them
	// into the step's SLURM_DISTRIBUTION, SLURM_MEM_BIND* and SLURM_CPU_BIND* as srun does.
	site jobspec.SiteOptions
	// cpuBind is srun's verified --cpu-bind, nil when not given (bind.go).
	cpuBind *compatopts.CPUBind
	// preserve is -E: the task counts srun's environment has stay (Slurm's setup_env).
	preserve bool
	// logLevel is srun's log level as SRUN_DEBUG tells the tasks: info (3), one more per
	// -v, error (2) with -Q.
	logLevel int
	// stored is srun's --ntasks-per-socket and --container (compat/jobspec StoredOptions);
	// overcommit its -O (or the job's SLURM_OVERCOMMIT).
	stored     jobspec.StoredOptions
	overcommit bool
	mpi        string // the step's MPI type: SLURM_MPI_TYPE unless none
	// pty is srun --pty on a terminal of ptyRows by ptyCols (pty.go).
	pty              bool
	ptyRows, ptyCols uint16
}

// nodeEnv is the environment of the tasks on the step's node i: srun's environment with
// the step's SLURM_* variables (env_array_for_step and the launch's), and the node's own.
// slurmd adds SLURMD_NODENAME and each task's SLURM_PROCID, SLURM_LOCALID and SLURM_TASK_PID.
func (e *stepEnv) nodeEnv(i int, ranks []uint32) []string {
	s := e.step
	set := map[string]string{}
	var order []string
	put := func(k, v string) {
		if e.noAlloc && noAllocUnset[k] {
			return
		}
		if _, ok := set[k]; !ok {
			order = append(order, k)
		}
		set[k] = v
	}
	u32 := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	jobNodes := len(s.JobCPUs)
	// Inside an allocation the job's own variables (cluster, node count, CPUs, submit
	// directory and host) are the allocation's environment's, which srun passes on as they
	// are: srun --jobid from outside one has none of them, as on Slurm; and the job name is
	// srun's own (-J, SLURM_JOB_NAME, else the command's).
	if !e.inAlloc {
		put("SLURM_CLUSTER_NAME", s.ClusterName)
	}
	put("SLURM_CONF", e.confPath)
	put("SLURM_JOB_ID", u32(s.JobID))
	put("SLURM_JOBID", u32(s.JobID))
	if e.inAlloc && e.jobName != "" {
		put("SLURM_JOB_NAME", e.jobName)
	} else {
		put("SLURM_JOB_NAME", s.JobName)
	}
	put("SLURM_JOB_NODELIST", s.JobNodeList)
	if !e.inAlloc {
		put("SLURM_JOB_NUM_NODES", strconv.Itoa(jobNodes))
	}
	put("SLURM_JOB_PARTITION", s.Partition)
	if !e.inAlloc {
		put("SLURM_JOB_CPUS_PER_NODE", cmdclient.RepeatCounts(s.JobCPUs))
	}
	put("SLURM_JOB_UID", u32(e.uid))
	put("SLURM_JOB_GID", u32(e.gid))
	put("SLURM_JOB_USER", s.UserName)
	if !e.inAlloc {
		put("SLURM_SUBMIT_DIR", e.submitDir)
		put("SLURM_SUBMIT_HOST", e.submitHos)
	}
	put("SLURM_WORKING_CLUSTER", fmt.Sprintf("%s:%s:%d:9728:109", s.ClusterName, s.CtldAddr, s.CtldPort))
	put("SLURM_PRIO_PROCESS", "0")
	put("SLURM_UMASK", fmt.Sprintf("%04o", e.umask))
	if e.cpt > 0 {
		put("SLURM_CPUS_PER_TASK", u32(e.cpt))
	}
	drop := map[string]bool{}
	e.bindEnv(put, drop) // bind.go
	if e.inAlloc {
		// srun inside an allocation names the allocation's CPU layout as the first (and
		// only) het-job component under the old "PACK_GROUP" name, unless it is set
		// (srun_job.c _set_env_vars with offset 0).
		if !hasVar(e.base, "SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0") {
			put("SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0", cmdclient.RepeatCounts(s.JobCPUs))
		}
	}
	if e.label {
		put("SLURM_LABELIO", "1")
	}
	if e.mpi != "" && e.mpi != mpiNone {
		put("SLURM_MPI_TYPE", e.mpi)
	} else {
		drop["SLURM_MPI_TYPE"] = true // Slurm's srun unsets it for none
	}
	if e.overcommit {
		put("SLURM_OVERCOMMIT", "1")
	}
	if e.pty {
		// Slurm's srun listens for the task's terminal on this port; Orbit's terminal
		// travels on the step's I/O connection, whose port it names.
		put("SLURM_PTY_PORT", strconv.Itoa(e.commPort))
		if e.ptyRows > 0 || e.ptyCols > 0 {
			put("SLURM_PTY_WIN_COL", strconv.Itoa(int(e.ptyCols)))
			put("SLURM_PTY_WIN_ROW", strconv.Itoa(int(e.ptyRows)))
		}
	}
	if n := e.stored.NTasksPerSocket; n != jobspec.NoVal && n != 0 {
		put("SLURM_NTASKS_PER_SOCKET", u32(n))
	}
	if c := e.stored.Container; c != "" && !hasVar(e.base, "SLURM_CONTAINER") {
		put("SLURM_CONTAINER", c)
	}
	// The step.
	put("SLURM_STEP_ID", u32(s.StepID))
	put("SLURM_STEPID", u32(s.StepID))
	if !e.preserve { // -E keeps srun's own
		put("SLURM_NNODES", strconv.Itoa(len(s.Nodes)))
	}
	// The job's nodes, as the reference's tasks see them (SLURM_STEP_NODELIST is the
	// step's); srun -Z has no job.
	put("SLURM_NODELIST", cmp.Or(s.JobNodeList, s.NodeList))
	if !e.preserve {
		put("SLURM_NTASKS", u32(s.NumTasks))
		put("SLURM_NPROCS", u32(s.NumTasks))
		put("SLURM_TASKS_PER_NODE", cmdclient.RepeatCounts(s.Tasks))
		if e.tasksPerNode > 0 {
			put("SLURM_NTASKS_PER_NODE", u32(e.tasksPerNode)) // srun's --ntasks-per-node, kept
		}
	}
	put("SLURM_STEP_NODELIST", s.NodeList)
	put("SLURM_STEP_NUM_NODES", strconv.Itoa(len(s.Nodes)))
	put("SLURM_STEP_NUM_TASKS", u32(s.NumTasks))
	put("SLURM_STEP_TASKS_PER_NODE", cmdclient.RepeatCounts(s.Tasks))
	put("SLURM_SRUN_COMM_HOST", e.commHost)
	put("SLURM_SRUN_COMM_PORT", strconv.Itoa(e.commPort))
	put("SLURM_STEP_LAUNCHER_PORT", strconv.Itoa(e.commPort))
	put("SLURM_LAUNCH_NODE_IPADDR", e.commHost)
	put("SRUN_DEBUG", strconv.Itoa(e.logLevel))
	// The node.
	put("SLURM_NODEID", strconv.Itoa(i))
	put("SLURM_CPUS_ON_NODE", u32(s.CPUsOnNode[i]))
	put("SLURM_GTIDS", gtids(ranks))
	put("SLURM_TOPOLOGY_ADDR", s.Nodes[i])
	put("SLURM_TOPOLOGY_ADDR_PATTERN", "node")
	if stepHasGPUs(s) {
		// The step's GPUs on this node, as Slurm's gres/gpu step_set_env gives them; a step
		// without GPUs leaves what srun's environment has.
		gpus := ""
		if i < len(s.GPUs) {
			gpus = s.GPUs[i]
		}
		for _, name := range stepGPUVars {
			switch name {
			case "SLURM_GPUS_ON_NODE":
				n := 0
				if gpus != "" {
					n = strings.Count(gpus, ",") + 1
				}
				put(name, strconv.Itoa(n))
			default:
				put(name, gpus)
			}
		}
	}

	out := make([]string, 0, len(e.base)+len(order))
	for _, kv := range e.base {
		name, _, _ := strings.Cut(kv, "=")
		if _, over := set[name]; over || drop[name] {
			continue
		}
		// Per-task variables of an enclosing step must not leak into this one.
		switch name {
		case "SLURM_PROCID", "SLURM_LOCALID", "SLURM_TASK_PID", "SLURMD_NODENAME":
			continue
		}
		out = append(out, kv)
	}
	for _, k := range order {
		out = append(out, k+"="+set[k])
	}
	return out
}

// stepGPUVars are the variables naming a step's GPUs on a node, in the order nodeEnv puts
// them (the batch step's set, slurmd/slurmstepd/env_batch.go, with SLURM_STEP_GPUS for
// SLURM_JOB_GPUS).
var stepGPUVars = []string{"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK",
	"GPU_DEVICE_ORDINAL", "SLURM_STEP_GPUS", "SLURM_GPUS_ON_NODE"}

// stepHasGPUs says whether step s holds GPU devices (with device files) on any node.
func stepHasGPUs(s *wire.StepCreateReply) bool {
	for _, g := range s.GPUs {
		if g != "" {
			return true
		}
	}
	return false
}

func gtids(ranks []uint32) string {
	s := make([]string, len(ranks))
	for i, r := range ranks {
		s[i] = strconv.FormatUint(uint64(r), 10)
	}
	return strings.Join(s, ",")
}

// hasVar says whether env sets name.
func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}

// gpusPerTask is the GPU count of --gpus-per-task's "gres:gpu[:type]:N" (0 for none).
func gpusPerTask(tres string) uint32 {
	if tres == "" {
		return 0
	}
	n, err := strconv.ParseUint(tres[strings.LastIndexByte(tres, ':')+1:], 10, 32)
	if err != nil {
		return 0
	}
	return uint32(n)
}
