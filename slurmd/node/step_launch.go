package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// srun steps (MsgLaunchTasks) run in-process: slurmd supervises their tasks itself with
// slurmd/stepd rather than through a slurmstepd per step. Why: a step's tasks stream their
// output to srun, which is waiting for them, so a step is only useful while its srun lives
// and there is little to gain from outliving slurmd; in-process, one emulating slurmd can run
// thousands of small steps without a process each, and a step's stdio is plain io.Writers
// on the srun connection. The cost: a restarted slurmd does not reattach to running srun
// steps (their tasks are killed with the old slurmd's process tree cleanup, or run on
// unsupervised; srun then reports them lost). Batch steps keep their own slurmstepd.

// stepKey names a step on one node.
type stepKey struct {
	node        string
	job, stepID uint32
}

// inproc holds the in-process steps of every Daemon of this process.
var inproc = struct {
	sync.Mutex
	steps map[*Daemon]map[stepKey]*stepd.Step
}{steps: map[*Daemon]map[stepKey]*stepd.Step{}}

func (d *Daemon) addStep(k stepKey, s *stepd.Step) {
	inproc.Lock()
	defer inproc.Unlock()
	if inproc.steps[d] == nil {
		inproc.steps[d] = map[stepKey]*stepd.Step{}
	}
	inproc.steps[d][k] = s
}

func (d *Daemon) removeStep(k stepKey) {
	inproc.Lock()
	defer inproc.Unlock()
	delete(inproc.steps[d], k)
}

// jobSteps are the in-process steps of job on node (every step when stepID is nil).
func (d *Daemon) jobSteps(node string, job uint32, stepID *uint32) []*stepd.Step {
	inproc.Lock()
	defer inproc.Unlock()
	var out []*stepd.Step
	for k, s := range inproc.steps[d] {
		if k.node == node && k.job == job && (stepID == nil || *stepID == k.stepID) {
			out = append(out, s)
		}
	}
	return out
}

// killSrunSteps kills the job's in-process steps on node (TerminateJob); it returns how
// many there were.
func (d *Daemon) killSrunSteps(node string, job uint32) int {
	steps := d.jobSteps(node, job, nil)
	for _, s := range steps {
		s.Kill()
	}
	return len(steps)
}

// signalSrunSteps signals the job's in-process steps on node; it returns how many there were.
func (d *Daemon) signalSrunSteps(node string, job uint32, sig syscall.Signal) int {
	steps := d.jobSteps(node, job, nil)
	for _, s := range steps {
		s.Signal(sig, nil)
	}
	return len(steps)
}

// registerSteps installs the srun endpoints.
func (d *Daemon) registerSteps() {
	d.srv.HandleRPC(wire.MsgLaunchTasks, d.handleLaunchTasks)
	d.srv.HandleRPC(wire.MsgSignalTasks, d.handleSignalTasks)
}

// handleLaunchTasks starts a step's tasks on one node for srun: the caller must be the job's
// user (or root/SlurmUser), the credential must be the controller's for this job, step, user
// and node; then the node connects to srun's I/O port, starts the tasks and replies. The
// tasks' output, and their exits, follow on the I/O connection.
func (d *Daemon) handleLaunchTasks(ctx context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.LaunchTasks)
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if req.Identity == nil || (req.Identity.UID != m.UserID && !d.privileged(req)) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	lc, err := d.launchV.VerifyLaunch(m.Cred, m.NodeName)
	if err != nil {
		d.log.Warn("step launch refused: bad credential", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "err", err)
		if errors.Is(err, auth.ErrLaunchExpired) {
			return nil, wire.Errorf(errnoCredentialExpired, "Job credential expired")
		}
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if lc.JobID != m.JobID || lc.StepID != m.StepID || lc.UID != m.UserID || lc.GID != m.GroupID {
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if len(m.Argv) == 0 || len(m.Ranks) == 0 {
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: no command or no tasks")
	}
	if len(m.StdOut) != 0 && len(m.StdOut) != len(m.Ranks) || len(m.StdErr) != 0 && len(m.StdErr) != len(m.Ranks) {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "output file names do not match the tasks")
	}
	d.mu.Lock()
	// A step has no restart count: a job terminated here and not launched again since (a
	// batch launch of a later incarnation clears the record) runs no steps.
	_, killed := d.wasKilled(m.JobID, 0, time.Now())
	d.mu.Unlock()
	if killed {
		return nil, wire.Errorf(errnoKillJobComplete, "Job already completed")
	}
	dialer := net.Dialer{Timeout: d.timeout}
	conn, err := dialer.DialContext(ctx, "tcp", m.IOAddr)
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "cannot connect to srun at %s: %v", m.IOAddr, err)
	}
	out := stepio.NewWriter(conn)
	if err := out.Write(stepio.Hello, m.NodeID, m.IOKey); err != nil {
		conn.Close()
		return nil, wire.Errorf(wire.ErrnoSlurmError, "cannot connect to srun at %s: %v", m.IOAddr, err)
	}
	spec, stdin := stepSpec(h, m, out)
	step, err := stepd.Start(spec)
	if err != nil {
		out.Write(stepio.Failed, m.NodeID, []byte(err.Error()))
		conn.Close()
		d.log.Error("step launch failed", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "err", err)
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: %v", err)
	}
	k := stepKey{node: m.NodeName, job: m.JobID, stepID: m.StepID}
	d.addStep(k, step)
	d.log.Info("launched step", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "tasks", len(m.Ranks))
	go readStdin(conn, stdin)
	go func() {
		exits := step.Wait()
		for _, e := range exits {
			out.Write(stepio.Exit, uint32(e.Rank), stepio.ExitData(e.Status))
		}
		conn.Close()
		d.removeStep(k)
		stepd.RemoveState(step.StatePath())
		os.Remove(stepd.JobDir(h.spool, m.JobID)) // only when empty: a batch step may live there
		d.log.Info("step ended", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "exit", stepd.StepExit(exits).String())
	}()
	return nil, nil
}

// stepSpec builds the tasks of the launch. Each task runs through a /bin/sh shim that sets
// its own variables (SLURM_PROCID, SLURM_LOCALID, SLURM_TASK_PID) and execs the command, so
// the task keeps the shim's pid; stepd gives all tasks of a step one environment. A command
// that cannot be found on the step's PATH is started as given, so that stepd reports the
// failed execve as Slurm does ("execve(): cmd: No such file or directory", exit code 2).
func stepSpec(h *hosted, m *wire.LaunchTasks, out *stepio.Writer) (stepd.StepSpec, *io.PipeWriter) {
	env := append([]string(nil), m.Environment...)
	env = append(env, "SLURMD_NODENAME="+h.node.Name)
	workDir := m.WorkDir
	if workDir == "" {
		workDir = "/"
	}
	cmd, found := lookPath(m.Argv[0], env, workDir)
	spec := stepd.StepSpec{
		JobID: m.JobID, StepID: strconv.FormatUint(uint64(m.StepID), 10), NodeName: h.node.Name, Spool: h.spool,
		UID: m.UserID, GID: m.GroupID, WorkDir: workDir, Env: env, KillWait: int(m.KillWait),
		SharedSupervisor: true,
	}
	if m.TimeLimit != 0 && m.TimeLimit != wire.Infinite && m.TimeLimit != wire.NoVal {
		spec.TimeLimit = int(m.TimeLimit) * 60
	}
	var stdinW *io.PipeWriter
	for i, rank := range m.Ranks {
		t := stepd.Task{Rank: int(rank), LocalID: i, Stdin: stepd.Stdio{Path: "/dev/null"}}
		if found {
			script := fmt.Sprintf("export SLURM_PROCID=%d SLURM_LOCALID=%d SLURM_TASK_PID=$$; exec \"$@\"", rank, i)
			t.Argv = append([]string{"/bin/sh", "-c", script, "slurmstepd-" + h.node.Name, cmd}, m.Argv[1:]...)
		} else {
			t.Argv = append([]string{m.Argv[0]}, m.Argv[1:]...)
		}
		t.Stdout = stepd.Stdio{Writer: out.TaskWriter(stepio.Stdout, rank)}
		t.Stderr = stepd.Stdio{Writer: out.TaskWriter(stepio.Stderr, rank)}
		if len(m.StdOut) > 0 && m.StdOut[i] != "" {
			t.Stdout = stepd.Stdio{Path: m.StdOut[i]}
		}
		if len(m.StdErr) > 0 && m.StdErr[i] != "" {
			t.Stderr = stepd.Stdio{Path: m.StdErr[i]}
		}
		if int32(rank) == m.StdinRank {
			r, w := io.Pipe()
			t.Stdin = stepd.Stdio{Reader: r}
			stdinW = w
		}
		spec.Tasks = append(spec.Tasks, t)
	}
	return spec, stdinW
}

// readStdin copies srun's Stdin frames into the stdin task's pipe until StdinEOF or the end
// of the connection.
func readStdin(conn net.Conn, w *io.PipeWriter) {
	r := stepio.NewReader(conn)
	defer func() {
		if w != nil {
			w.Close()
		}
	}()
	for {
		f, err := r.Read()
		if err != nil {
			return
		}
		switch f.Type {
		case stepio.Stdin:
			if w != nil {
				if _, err := w.Write(f.Data); err != nil {
					w = nil // the task closed its stdin; keep draining
				}
			}
		case stepio.StdinEOF:
			if w != nil {
				w.Close()
				w = nil
			}
		}
	}
}

// lookPath finds cmd as execvp would with the step's PATH; a name with a slash is taken
// relative to the working directory.
func lookPath(cmd string, env []string, workDir string) (string, bool) {
	exec := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
	}
	if strings.Contains(cmd, "/") {
		p := cmd
		if !filepath.IsAbs(p) {
			p = filepath.Join(workDir, p)
		}
		return p, exec(p)
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(workDir, dir)
		}
		if p := filepath.Join(dir, cmd); exec(p) {
			return p, true
		}
	}
	return cmd, false
}

// handleSignalTasks signals one step's tasks (srun forwarding a signal).
func (d *Daemon) handleSignalTasks(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.SignalTasks)
	if d.nodes[m.NodeName] == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if m.Signal <= 0 || m.Signal >= 65 {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "Invalid signal %d", m.Signal)
	}
	steps := d.jobSteps(m.NodeName, m.JobID, &m.StepID)
	if len(steps) == 0 {
		return nil, wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
	}
	for _, s := range steps {
		if req.Identity == nil || (!d.privileged(req) && stepOwner(s) != req.Identity.UID) {
			return nil, wire.NewError(wire.ErrnoAccessDenied)
		}
		s.Signal(syscall.Signal(m.Signal), nil)
	}
	return nil, nil
}

// stepOwner is the uid a step runs as, from its state file.
func stepOwner(s *stepd.Step) uint32 {
	st, err := stepd.ReadState(s.StatePath())
	if err != nil {
		return ^uint32(0)
	}
	return st.UID
}
