package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// Slurm 22.05's values in SLURM_WORKING_CLUSTER (cluster:addr:port:protocol:select plugin id):
// SLURM_PROTOCOL_VERSION of 22.05 and select/cons_tres's plugin id. Tools split the value on
// ':' and some check the field count, so the shape is kept.
const (
	protocolVersion2205 = 9728
	selectConsTresID    = 109
)

// noVal is Slurm's NO_VAL (array task id of a job that is not an array task).
const noVal = 0xFFFFFFFE

// batchEnv builds the batch step's environment as Slurm 22.05's slurmstepd does: the job's
// submitted environment (sbatch already put SLURM_JOB_NAME, SLURM_NTASKS, SLURM_CPUS_PER_TASK,
// SLURM_SUBMIT_DIR, SLURM_EXPORT_ENV... in it, and the controller SLURM_ARRAY_TASK_COUNT/MIN/
// MAX/STEP), then what env_array_for_batch_job and the task setup add on the node. Variables
// Slurm 22.05 does not set are left out even when later Slurm sets them
// (SLURM_JOB_START_TIME, SLURM_JOB_END_TIME arrived in 23.02). The task pid is added by the
// stepd package itself (TaskPidEnv).
func batchEnv(b *stepdlaunch.Batch) ([]string, error) {
	m := &b.Msg
	e := newEnv(withUserEnv(b))
	nodes, err := hostlist.Expand(m.NodeList)
	if err != nil || len(nodes) == 0 {
		return nil, fmt.Errorf("job %d: invalid node list %q", m.JobID, m.NodeList)
	}
	nodeIndex := 0
	for i, n := range nodes {
		if n == b.NodeName {
			nodeIndex = i
		}
	}
	cpus := m.CPUsPerNode
	if len(cpus) != len(nodes) {
		// One count for every node, or none: spread what was given.
		c := uint32(1)
		if len(cpus) > 0 {
			c = cpus[0]
		}
		cpus = make([]uint32, len(nodes))
		for i := range cpus {
			cpus[i] = c
		}
	}

	// env_array_for_batch_job.
	e.set("SLURM_CLUSTER_NAME", b.ClusterName)
	e.set("SLURM_JOB_ID", u32(m.JobID))
	e.set("SLURM_JOB_NUM_NODES", strconv.Itoa(len(nodes)))
	if m.ArrayTaskID != noVal && m.ArrayJobID != 0 {
		e.set("SLURM_ARRAY_JOB_ID", u32(m.ArrayJobID))
		e.set("SLURM_ARRAY_TASK_ID", u32(m.ArrayTaskID))
	}
	e.set("SLURM_JOB_NODELIST", m.NodeList)
	e.set("SLURM_JOB_PARTITION", m.Partition)
	e.set("SLURM_NODE_ALIASES", "(null)") // no cloud nodes: Slurm prints the NULL alias list
	e.set("SLURM_JOB_CPUS_PER_NODE", compressed(cpus))
	e.set("ENVIRONMENT", "BATCH")
	e.set("HOSTNAME", b.NodeName)
	e.set("SLURM_JOBID", u32(m.JobID))
	e.set("SLURM_NNODES", strconv.Itoa(len(nodes)))
	e.set("SLURM_NODELIST", m.NodeList)
	cpt := m.CPUsPerTask
	if cpt == 0 || cpt == 0xFFFE {
		cpt = 1
	}
	if e.has("SLURM_CPUS_PER_TASK") { // set by sbatch only when given; refreshed, never added
		e.set("SLURM_CPUS_PER_TASK", u32(cpt))
	}
	// Slurm sets these from the task count the job asked for (-n, which sbatch put in the
	// environment already, or --ntasks-per-node times the nodes); the controller sends 0
	// when it asked neither, as Slurm's does.
	if m.NumTasks != 0 && m.NumTasks != noVal {
		e.add("SLURM_NTASKS", u32(m.NumTasks))
		e.add("SLURM_NPROCS", u32(m.NumTasks))
	}
	if !e.has("SLURM_ARBITRARY_NODELIST") {
		// An arbitrary job (sbatch -m arbitrary, SLURM_HOSTFILE) gets none: Slurm lays its
		// tasks out over that list, which names each node once, and fails.
		e.set("SLURM_TASKS_PER_NODE", compressed(blockLayout(m.NumTasks, cpus, cpt)))
	}
	switch {
	case m.MemPerCPU != 0:
		e.set("SLURM_MEM_PER_CPU", strconv.FormatUint(m.MemPerCPU, 10))
	case m.MemPerNode != 0:
		e.set("SLURM_MEM_PER_NODE", strconv.FormatUint(m.MemPerNode, 10))
	}
	if m.GPUs != "" {
		// The gpu GRES plugin's job environment (gres_common.c): with gres.conf's default
		// env flags every vendor's variable lists the devices of the batch host.
		for _, v := range []string{"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL", "SLURM_JOB_GPUS"} {
			e.set(v, m.GPUs)
		}
		e.set("SLURM_GPUS_ON_NODE", strconv.Itoa(strings.Count(m.GPUs, ",")+1))
	}
	if m.Account != "" {
		e.set("SLURM_JOB_ACCOUNT", m.Account)
	}
	if m.QOS != "" {
		e.set("SLURM_JOB_QOS", m.QOS)
	}

	// The task's own variables (setup_env and slurmstepd for the batch task).
	e.set("SLURM_CPUS_ON_NODE", u32(cpus[nodeIndex]))
	if m.JobName != "" && !e.has("SLURM_JOB_NAME") {
		// sbatch's own SLURM_JOB_NAME, the name at submission, is what the job sees, as
		// in Slurm (a later scontrol update Name= does not change it).
		e.set("SLURM_JOB_NAME", m.JobName)
	}
	if m.Restarts > 0 {
		// A requeued job's later runs learn how often it restarted (setup_env); the first
		// run has no such variable.
		e.set("SLURM_RESTART_COUNT", u32(m.Restarts))
	}
	e.set("SLURM_NODEID", "0")
	e.set("SLURM_PROCID", "0")
	e.set("SLURM_LOCALID", "0")
	e.set("SLURM_GTIDS", "0")
	userName := m.UserName
	if userName == "" {
		if u, err := userdb.LookupId(u32(m.UserID)); err == nil {
			userName = u.Username
		}
	}
	if userName != "" {
		e.set("SLURM_JOB_UID", u32(m.UserID))
		e.set("SLURM_JOB_USER", userName)
	}
	e.set("SLURM_JOB_GID", u32(m.GroupID))
	e.set("SLURMD_NODENAME", b.NodeName)
	e.set("SLURM_TOPOLOGY_ADDR", b.NodeName)
	e.set("SLURM_TOPOLOGY_ADDR_PATTERN", "node")
	e.set("SLURM_WORKING_CLUSTER", fmt.Sprintf("%s:%s:%d:%d:%d", b.ClusterName, b.CtldAddr, b.CtldPort,
		protocolVersion2205, selectConsTresID))
	if b.ConfPath != "" {
		e.set("SLURM_CONF", b.ConfPath)
	}
	// sbatch sets these; a job submitted by other means still gets them from the launch.
	if !e.has("SLURM_SUBMIT_DIR") && m.SubmitDir != "" {
		e.set("SLURM_SUBMIT_DIR", m.SubmitDir)
	}
	if !e.has("SLURM_SUBMIT_HOST") && m.SubmitHost != "" {
		e.set("SLURM_SUBMIT_HOST", m.SubmitHost)
	}
	if v, ok := e.get("TMPDIR"); !ok || v == "" {
		tmp := b.TmpFS
		if tmp == "" {
			tmp = "/tmp"
		}
		e.set("TMPDIR", tmp)
	}
	// slurmstepd applies SLURM_UMASK (see main) and removes it from the task's environment.
	e.unset("SLURM_UMASK")
	return e.list(), nil
}

// userEnvTimeout is how long the node waits for the user's login shell: Slurm 22.05's slurmd
// passes 120 s for batch jobs (GetEnvTimeout serves other callers).
const userEnvTimeout = 120 * time.Second

// loadUserEnv loads a user's login environment; tests replace it.
var loadUserEnv = suUserEnv

// withUserEnv is the job's submitted environment, laid over the user's login environment when
// sbatch asked for it (SLURM_GET_USER_ENV=1: --get-user-env, --export=NONE or a list), as
// Slurm's slurmd does before it starts the batch step. When the login environment cannot be
// loaded Slurm logs an error and runs the job with the submitted environment alone (unless
// SchedulerParameters=requeue_setup_env_fail, which Orbit does not implement); so does this.
func withUserEnv(b *stepdlaunch.Batch) []string {
	m := &b.Msg
	want := false
	for _, kv := range m.Environment {
		if kv == "SLURM_GET_USER_ENV=1" {
			want = true
		}
	}
	if !want {
		return m.Environment
	}
	name := m.UserName
	if name == "" {
		if u, err := userdb.LookupId(u32(m.UserID)); err == nil {
			name = u.Username
		}
	}
	login, err := loadUserEnv(name, userEnvTimeout)
	if err != nil {
		logger(b.LogFile, b.Debug).Error("Unable to get user's local environment, running only with passed environment",
			"job", m.JobID, "user", name, "err", err)
		return m.Environment
	}
	e := newEnv(login)
	for _, kv := range m.Environment {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e.set(k, v)
		}
	}
	return e.list()
}

// The markers around the env output in the login shell's output, Slurm's own, so that what
// a user's profile prints is never read as variables.
const (
	userEnvStart = "XXXXSLURMSTARTPARSINGHEREXXXX"
	userEnvStop  = "XXXXSLURMSTOPPARSINGHEREXXXXX"
)

// suUserEnv runs `su - <user>` with a login shell that prints its environment between the
// markers, as env_array_user_default does: only root can, the shell starts with nothing but
// ENVIRONMENT=BATCH, its own process group (killed on timeout), no stdin and no stderr.
func suUserEnv(name string, timeout time.Duration) ([]string, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("SlurmdUser must be root to use --get-user-env")
	}
	if name == "" {
		return nil, errors.New("unknown user")
	}
	envCmd := "/bin/env"
	if _, err := os.Stat(envCmd); err != nil {
		envCmd = "/usr/bin/env"
	}
	script := fmt.Sprintf("/bin/echo; /bin/echo; /bin/echo; /bin/echo %s; %s; /bin/echo %s", userEnvStart, envCmd, userEnvStop)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/su", "-", name, "-c", script)
	cmd.Env = []string{"ENVIRONMENT=BATCH"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("timeout waiting for /bin/su to complete")
	}
	// su's own exit status does not matter: a profile may fail after env printed.
	return parseUserEnv(out.String())
}

// parseUserEnv reads the variables between the markers of a login shell's output as Slurm
// does: empty lines skipped, NAME=value lines (DISPLAY, ENVIRONMENT and HOSTNAME dropped, a
// later value of a name replacing the earlier), exported bash functions ("()" values) joined
// with their following lines until their braces balance; other lines ignored.
func parseUserEnv(out string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], userEnvStart) {
		i++
	}
	if i == len(lines) {
		return nil, errors.New("failed to get current user environment variables")
	}
	e := newEnv(nil)
	for i++; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, userEnvStop) {
			return e.list(), nil
		}
		name, value, ok := strings.Cut(l, "=")
		if !ok || name == "DISPLAY" || name == "ENVIRONMENT" || name == "HOSTNAME" {
			continue
		}
		if strings.HasPrefix(value, "(") {
			for strings.Count(value, "{") > strings.Count(value, "}") && i+1 < len(lines) {
				i++
				value += "\n" + lines[i]
			}
		}
		if name != "" {
			e.set(name, value)
		}
	}
	return nil, errors.New("failed to get all user environment variables")
}

func u32(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// blockLayout is how many tasks each node gets under the block distribution, as Slurm's
// step layout computes it for the batch environment: with no task count, every node holds
// cpus/cpus-per-task tasks; otherwise tasks are counted out cyclically, one per node with
// room left in each round, and once no node has room, one per node per round (the counts are
// then assigned in blocks; without CR_PACK_NODES, as Slurm's default).
func blockLayout(ntasks uint32, cpus []uint32, cpt uint32) []uint32 {
	out := make([]uint32, len(cpus))
	capOf := func(i int) uint32 {
		c := cpus[i] / cpt
		if c == 0 {
			c = 1
		}
		return c
	}
	if ntasks == 0 || ntasks == noVal {
		for i := range cpus {
			out[i] = capOf(i)
		}
		return out
	}
	over := false
	for j, left := uint32(0), ntasks; left > 0; j++ {
		room := false
		for i := 0; i < len(out) && left > 0; i++ {
			if j < capOf(i) || over {
				out[i]++
				left--
				if j+1 < capOf(i) {
					room = true
				}
			}
		}
		if !room {
			over = true
		}
	}
	return out
}

// compressed is Slurm's uint32_compressed_to_str: runs of equal values as "v(xN)",
// comma-separated ("2(x3),1").
func compressed(v []uint32) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(u32(v[i]))
		if j-i > 1 {
			fmt.Fprintf(&b, "(x%d)", j-i)
		}
		i = j
	}
	return b.String()
}

// env is an environment that keeps its order: existing names are replaced in place, new
// ones appended.
type env struct {
	vars  []string
	index map[string]int
}

func newEnv(in []string) *env {
	e := &env{index: map[string]int{}}
	for _, kv := range in {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue // not a variable: Slurm drops it too
		}
		if i, dup := e.index[name]; dup {
			e.vars[i] = kv
			continue
		}
		e.index[name] = len(e.vars)
		e.vars = append(e.vars, kv)
	}
	return e
}

func (e *env) get(name string) (string, bool) {
	i, ok := e.index[name]
	if !ok {
		return "", false
	}
	_, v, _ := strings.Cut(e.vars[i], "=")
	return v, true
}

func (e *env) has(name string) bool { _, ok := e.index[name]; return ok }

// set overwrites or adds (Slurm's env_array_overwrite).
func (e *env) set(name, value string) {
	if i, ok := e.index[name]; ok {
		e.vars[i] = name + "=" + value
		return
	}
	e.index[name] = len(e.vars)
	e.vars = append(e.vars, name+"="+value)
}

// add sets name only when it is not set yet (Slurm's env_array_append).
func (e *env) add(name, value string) {
	if !e.has(name) {
		e.set(name, value)
	}
}

func (e *env) unset(name string) {
	i, ok := e.index[name]
	if !ok {
		return
	}
	e.vars = append(e.vars[:i], e.vars[i+1:]...)
	delete(e.index, name)
	for n, j := range e.index {
		if j > i {
			e.index[n] = j - 1
		}
	}
}

func (e *env) list() []string { return append([]string(nil), e.vars...) }
