package stepd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/strerror"
)

// TaskScripts are the programs Slurm runs around each task of a step, the batch script
// included: slurm.conf's TaskProlog and TaskEpilog, and the step's own --task-prolog and
// --task-epilog (srun). The prologs run before the task starts, as the job's user, in the
// task's directory and environment (with SLURM_SCRIPT_CONTEXT=prolog_task, which the task
// keeps); what they print sets the task's environment ("export NAME=value", "unset NAME") or
// goes to its standard output ("print ..."). A prolog that fails ends the task with its
// status, which never starts. The epilogs run as each task ends, their output discarded.
type TaskScripts struct {
	Prolog, Epilog         string // slurm.conf's TaskProlog and TaskEpilog
	UserProlog, UserEpilog string // --task-prolog, --task-epilog
}

// errNotQualified is Slurm's refusal of a script path that is not absolute.
var errNotQualified = errors.New("not fully qualified")

// userEpilogWait bounds a --task-epilog, as Slurm gives it 5 seconds.
const userEpilogWait = 5 * time.Second

// runTaskProlog runs the prologs for task t with environment env (base, then overrides)
// and returns the overrides to start the task with, or the exit status that ends it.
func (s *Step) runTaskProlog(t *task, env, extra []string, st *stdio, cwd string) ([]string, []string, int) {
	sc := s.spec.TaskScripts
	if sc.Prolog == "" && sc.UserProlog == "" {
		return env, extra, 0
	}
	extra = append(append([]string(nil), extra...), "SLURM_SCRIPT_CONTEXT=prolog_task")
	for _, p := range []struct{ name, path, failed string }{
		{"slurm task_prolog", sc.Prolog, "TaskProlog"},
		{"user task_prolog", sc.UserProlog, "--task-prolog"},
	} {
		if p.path == "" {
			continue
		}
		var out string
		var status syscall.WaitStatus
		var err error
		if !filepath.IsAbs(p.path) {
			err = errNotQualified
		} else {
			out, status, err = s.runAsUser(p.path, merged(env, extra), cwd, 0)
		}
		switch {
		case err == errNotQualified:
			s.writeStderr(st, fmt.Sprintf("%s: error: run_command: %s is not fully qualified pathname (%s)\n",
				s.spec.logPrefix(), p.name, p.path))
			s.writeStderr(st, fmt.Sprintf("%s: error: %s did not exit normally. reason: Run command failed - configuration error\n",
				s.spec.logPrefix(), p.name))
		case err != nil:
			s.writeStderr(st, fmt.Sprintf("%s: error: run_command: %s can not be executed (%s) %s\n",
				s.spec.logPrefix(), p.name, p.path, strerror.Text(err)))
			s.writeStderr(st, fmt.Sprintf("%s: error: %s did not exit normally. reason: Run command failed - configuration error\n",
				s.spec.logPrefix(), p.name))
			status = 1
		case status.Signaled():
			s.writeStderr(st, fmt.Sprintf("%s: error: %s did not exit normally. reason: %s\n", s.spec.logPrefix(), p.name, out))
			return env, extra, 1
		default:
			env, extra = applyPrologOutput(out, env, extra, st.stdoutWriter())
		}
		if code := exitCode(status, err); code != 0 {
			s.writeStderr(st, fmt.Sprintf("%s: error: %s failed status=%d\n", s.spec.logPrefix(), p.failed, code))
			return env, extra, code
		}
	}
	return env, extra, 0
}

// runTaskEpilog runs the epilogs as task t has ended. One that fails (or is killed at the
// end of its time) is reported with its raw wait status where the step's errors go, as
// Slurm's slurmstepd does: "TaskEpilog failed status=9" for --task-epilog (sic: Slurm
// names them crosswise) and "--task-epilog failed status=768" for slurm.conf's TaskEpilog.
func (s *Step) runTaskEpilog(t *task) {
	sc := s.spec.TaskScripts
	for _, p := range []struct {
		path, failed string
		wait         time.Duration
	}{{sc.UserEpilog, "TaskEpilog", userEpilogWait}, {sc.Epilog, "--task-epilog", 0}} {
		if !filepath.IsAbs(p.path) { // Slurm's run_command runs nothing else
			continue
		}
		if _, status, err := s.runAsUser(p.path, merged(s.spec.Env, t.Env), s.spec.WorkDir, p.wait); err == nil && status != 0 {
			s.Log(fmt.Sprintf("%s: error: %s failed status=%d\n", s.spec.logPrefix(), p.failed, int(status)))
		}
	}
}

func exitCode(ws syscall.WaitStatus, err error) int {
	if err != nil {
		return 1
	}
	return ws.ExitStatus()
}

// runAsUser runs path as the job's user with env in dir and returns what it wrote (standard
// output and error together, as Slurm's run_command reads them) and how it ended; err says
// it could not be started. wait > 0 bounds it. The child is forked through the registry, so
// the package's reaper (this process is a child subreaper) hands its status back here.
func (s *Step) runAsUser(path string, env []string, dir string, wait time.Duration) (string, syscall.WaitStatus, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", 0, err
	}
	defer r.Close()
	cmd := exec.Command(path)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = env, dir, w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if s.cred.drop {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: s.cred.uid, Gid: s.cred.gid, Groups: s.cred.groups}
	}
	pid, ch, err := forkRegistered(func() (int, error) {
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
	w.Close()
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", 0, err
	}
	cmd.Process.Release() // the registry waits for it, not os/exec
	if wait > 0 {
		timer := time.AfterFunc(wait, func() { syscall.Kill(-pid, syscall.SIGKILL) })
		defer timer.Stop()
	}
	var out bytes.Buffer
	io.Copy(&limitedWriter{w: &out, n: 1 << 20}, r)
	ws, ok := <-ch
	if !ok {
		return out.String(), syscall.WaitStatus(1 << 8), nil // its status went to another waiter
	}
	return out.String(), syscall.WaitStatus(ws), nil
}

// applyPrologOutput applies a task prolog's output lines (Slurm's _proc_stdout).
func applyPrologOutput(out string, env, extra []string, stdout io.Writer) ([]string, []string) {
	for _, line := range strings.SplitAfter(out, "\n") {
		body := strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(body, "print "):
			if stdout != nil {
				io.WriteString(stdout, strings.TrimLeft(line[6:], " \t\r\v\f"))
			}
		case strings.HasPrefix(body, "export "):
			kv := strings.TrimLeft(body[7:], " \t\r\v\f")
			name, val, ok := strings.Cut(kv, "=")
			name = strings.TrimRight(name, " \t\r\v\f")
			if !ok || name == "" {
				continue
			}
			extra = append(removeVar(extra, name), name+"="+val)
		case strings.HasPrefix(body, "unset "):
			name := strings.TrimSpace(body[6:])
			if name == "" {
				continue
			}
			env, extra = removeVar(env, name), removeVar(extra, name)
		}
	}
	return env, extra
}

// removeVar returns env without name (a new slice when it had it).
func removeVar(env []string, name string) []string {
	var out []string
	for i, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			if out == nil {
				out = append([]string(nil), env[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, kv)
		}
	}
	if out == nil {
		return env
	}
	return out
}

// merged is base with overrides replacing entries of the same name.
func merged(base, over []string) []string {
	out := append([]string(nil), base...)
	for _, kv := range over {
		name, _, _ := strings.Cut(kv, "=")
		out = append(removeVar(out, name), kv)
	}
	return out
}

// limitedWriter keeps at most n bytes.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
