package ctld

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"golang.org/x/sys/unix"
)

// PrologSlurmctld and EpilogSlurmctld run on the controller, as slurmctld's user, outside the
// state lock, with the environment of Slurm's job_common_env_vars plus SLURM_SCRIPT_CONTEXT
// (prolog_slurmctld / epilog_slurmctld), bounded by PrologEpilogTimeout.
//
// A job the scheduler starts is launched only after PrologSlurmctld succeeded. When it fails
// (nonzero exit or timeout) the job is requeued (not held; pending reason BeginTime, as
// Slurm's job_requeue), or, when it may not be requeued, cancelled. EpilogSlurmctld runs
// after the job ended and changes nothing about it; its failure is logged.
//
// Differences from Slurm, on purpose for now: the job shows RUNNING rather than
// RUNNING+CONFIGURING while PrologSlurmctld runs; srun allocations do not wait for it; the
// job's nodes are released before EpilogSlurmctld ends.

// startPrologSlurmctld runs PrologSlurmctld for a job the scheduler just started and sends
// its launch once the script succeeded; false (the caller launches at once) when no
// PrologSlurmctld is configured.
func (c *Controller) startPrologSlurmctld(jobID uint32) bool {
	if c.config().PrologSlurmctld == "" {
		return false
	}
	c.mu.RLock()
	j := c.t.jobs[jobID]
	var env []string
	if j != nil {
		env = c.ctldScriptEnv(j, false)
	}
	c.mu.RUnlock()
	if j == nil {
		return true
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		status, timedOut := c.runCtldScript(c.config().PrologSlurmctld, env)
		if c.ctx.Err() != nil {
			return // shutting down: the job stays RUNNING and is relaunched at restart
		}
		if status == 0 {
			c.mu.RLock()
			j := c.t.jobs[jobID]
			ok := j != nil && j.state().IsRunning() && !j.state().IsCompleting()
			node := ""
			if ok {
				node = j.batchHost()
			}
			c.mu.RUnlock()
			if ok {
				c.send(agentTask{kind: taskLaunch, jobID: jobID, node: node})
			}
			return
		}
		c.log.Error("prolog_slurmctld failed", "job", jobID, "status", statusText(status), "timed_out", timedOut)
		c.prologSlurmctldFailed(jobID)
	}()
	return true
}

// prologSlurmctldFailed requeues the job, or cancels it when it may not be requeued.
func (c *Controller) prologSlurmctldFailed(jobID uint32) {
	now := c.now().Unix()
	c.mu.Lock()
	j := c.t.jobs[jobID]
	if j == nil || !j.state().IsRunning() || j.state().IsCompleting() {
		c.mu.Unlock()
		return
	}
	end := terminated{jobID: jobID, nodes: append([]string(nil), j.Nodes...)}
	var ch change
	if c.requeueAllowed(j) && !j.isInteractive() {
		var errno int32
		ch, _, errno = c.requeueChange(j, false, false, now) // job_requeue.go
		if errno != 0 {
			ch = nil
		}
	}
	if ch == nil {
		ch = endJob{jobID: jobID, state: states.JobCancelled, end: now, completing: true, keepReason: true}
	}
	p, err := c.apply(ch)
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot record prolog_slurmctld failure", "job", jobID, "err", err)
		return
	}
	for _, n := range end.nodes {
		c.send(agentTask{kind: taskTerminate, jobID: jobID, node: n})
	}
	c.wake()
}

// runEpilogSlurmctld runs EpilogSlurmctld for a job that ended, in the background.
func (c *Controller) runEpilogSlurmctld(jobID uint32) {
	if c.config().EpilogSlurmctld == "" {
		return
	}
	c.mu.RLock()
	j := c.t.jobs[jobID]
	var env []string
	if j != nil {
		env = c.ctldScriptEnv(j, true)
	}
	c.mu.RUnlock()
	if j == nil {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if status, timedOut := c.runCtldScript(c.config().EpilogSlurmctld, env); status != 0 {
			c.log.Error("epilog_slurmctld failed", "job", jobID, "status", statusText(status), "timed_out", timedOut)
		}
	}()
}

// ctldScriptEnv is Slurm's job_common_env_vars for j (under the read lock), with
// SLURM_SCRIPT_CONTEXT prolog_slurmctld or epilog_slurmctld.
func (c *Controller) ctldScriptEnv(j *jobRecord, epilog bool) []string {
	env := c.jobCommonEnv(j, epilog)
	if epilog {
		return append(env, "SLURM_SCRIPT_CONTEXT=epilog_slurmctld")
	}
	return append(env, "SLURM_SCRIPT_CONTEXT=prolog_slurmctld")
}

// jobCommonEnv is Slurm's job_common_env_vars for j (under the read lock): with complete,
// the job's exit code too.
func (c *Controller) jobCommonEnv(j *jobRecord, complete bool) []string {
	var env []string
	set := func(k, v string) { env = append(env, k+"="+v) }
	u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	d := j.Desc()
	set("SLURM_JOB_ACCOUNT", d.Account)
	if complete {
		ws := syscall.WaitStatus(j.ExitCode)
		code, sig := 0, 0
		if ws.Exited() {
			code = ws.ExitStatus()
		}
		if ws.Signaled() {
			sig = int(ws.Signal())
		}
		set("SLURM_JOB_DERIVED_EC", "0")
		set("SLURM_JOB_EXIT_CODE2", strconv.Itoa(code)+":"+strconv.Itoa(sig))
		set("SLURM_JOB_EXIT_CODE", u(j.ExitCode))
	}
	if j.ArrayJobID != 0 && len(j.ArrayPending) == 0 {
		set("SLURM_ARRAY_JOB_ID", u(j.ArrayJobID))
		set("SLURM_ARRAY_TASK_ID", u(j.ArrayTaskID))
	}
	if c.config().ClusterName != "" {
		set("SLURM_CLUSTER_NAME", c.config().ClusterName)
	}
	if d.Comment != "" {
		set("SLURM_JOB_COMMENT", d.Comment)
	}
	set("SLURM_JOB_GID", u(j.GroupID))
	set("SLURM_JOB_GROUP", c.names.group(j.GroupID))
	set("SLURM_JOBID", u(j.JobID))
	set("SLURM_JOB_ID", u(j.JobID))
	if d.Licenses != "" {
		set("SLURM_JOB_LICENSES", d.Licenses)
	}
	set("SLURM_JOB_NAME", d.Name)
	set("SLURM_JOB_NODELIST", hostlist.Compress(j.Nodes))
	if len(j.CPUsPerNode) > 0 {
		set("SLURM_JOB_CPUS_PER_NODE", compressCounts(c.t.usedCPUs(j)))
		set("SLURM_JOB_NUM_NODES", u(uint32(len(j.Nodes))))
	}
	set("SLURM_JOB_PARTITION", j.Partition)
	if d.Reservation != "" {
		set("SLURM_JOB_RESERVATION", d.Reservation)
	}
	set("SLURM_JOB_RESTART_COUNT", u(j.Restarts))
	set("SLURM_JOB_UID", u(j.UserID))
	set("SLURM_JOB_USER", c.names.user(j.UserID))
	if d.WCKey != "" {
		set("SLURM_WCKEY", d.WCKey)
	}
	if d.Constraint != "" {
		set("SLURM_JOB_CONSTRAINTS", d.Constraint)
	}
	if d.StdErr != "" {
		set("SLURM_JOB_STDERR", d.StdErr)
	}
	if d.StdIn != "" {
		set("SLURM_JOB_STDIN", d.StdIn)
	}
	if d.StdOut != "" {
		set("SLURM_JOB_STDOUT", d.StdOut)
	}
	if d.WorkDir != "" {
		set("SLURM_JOB_WORK_DIR", d.WorkDir)
	}
	return env
}

// compressCounts is Slurm's compressed count list ("2(x3),1").
func compressCounts(v []uint32) string {
	var b []byte
	for i := 0; i < len(v); {
		k := i
		for k < len(v) && v[k] == v[i] {
			k++
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(v[i]), 10)
		if k-i > 1 {
			b = append(b, "(x"...)
			b = strconv.AppendInt(b, int64(k-i), 10)
			b = append(b, ')')
		}
		i = k
	}
	return string(b)
}

// scriptTimeout is PrologEpilogTimeout (65534, Slurm's NO_VAL16 and the default: no bound).
func (c *Controller) scriptTimeout() time.Duration {
	v, ok := c.config().Get("PrologEpilogTimeout")
	if !ok {
		return 0
	}
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil || n >= 65534 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// runCtldScript runs every match of pattern (glob, in order, stopping at the first failure;
// no match is a failure, as in Slurm) and returns the wait(2) status of the failing one.
func (c *Controller) runCtldScript(pattern string, env []string) (status int, timedOut bool) {
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		c.log.Error("script not found", "pattern", pattern)
		return 127 << 8, false
	}
	for _, p := range paths {
		if status, timedOut = c.runOneCtldScript(p, nil, env, c.scriptTimeout()); status != 0 {
			return status, timedOut
		}
	}
	return 0, false
}

// runOneCtldScript runs path with args and only env as its environment, in a process group
// of its own, bounded by limit (0: none), and returns its wait(2) status.
func (c *Controller) runOneCtldScript(path string, args, env []string, limit time.Duration) (int, bool) {
	if !filepath.IsAbs(path) || unix.Access(path, unix.R_OK|unix.X_OK) != nil {
		c.log.Error("script can not be executed", "path", path)
		return 127 << 8, false
	}
	var out bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Env = append([]string{}, env...)
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		c.log.Error("script did not start", "path", path, "err", err)
		return 127 << 8, false
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if limit > 0 {
		tm := time.NewTimer(limit)
		defer tm.Stop()
		timer = tm.C
	}
	timedOut := false
	var err error
	select {
	case err = <-done:
	case <-timer:
		timedOut = true
		unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
		err = <-done
	case <-c.ctx.Done():
		unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
		err = <-done
	}
	var ee *exec.ExitError
	switch {
	case err == nil && !timedOut:
		return 0, false
	case errors.As(err, &ee):
		c.log.Debug("script output", "path", path, "output", out.String())
		return int(ee.Sys().(syscall.WaitStatus)), timedOut
	default:
		return int(unix.SIGKILL), timedOut
	}
}

// statusText is a wait status as Slurm logs it ("1:0").
func statusText(status int) string {
	ws := syscall.WaitStatus(status)
	code, sig := 0, 0
	if ws.Exited() {
		code = ws.ExitStatus()
	}
	if ws.Signaled() {
		sig = int(ws.Signal())
	}
	return strconv.Itoa(code) + ":" + strconv.Itoa(sig)
}
