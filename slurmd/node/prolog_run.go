package node

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Prolog and Epilog (slurm.conf) run the way Slurm 22.05's prep/script plugin runs them:
//
//   - The value is a glob(3) pattern; every match runs, in glob order, and the first one that
//     fails stops the rest. A pattern that matches nothing is itself a failure (Slurm: "Unable
//     to create list of paths"), so a mistyped Prolog drains the node rather than silently
//     running no prolog.
//   - Each path must be absolute and executable, else it "fails" with status 127 without
//     running, as Slurm's run_command does.
//   - The script runs as slurmd's user (root), in its own process group, with stdin from
//     /dev/null and stdout+stderr captured for the log; its environment is exactly the one
//     built for it (no PATH, nothing inherited from slurmd).
//   - PrologEpilogTimeout bounds each script (65534, Slurm's NO_VAL16, the default: no bound);
//     a script over time has its process group killed and counts as failed.

// scriptResult is how one Prolog or Epilog run ended.
type scriptResult struct {
	status   int    // wait(2) status of the failing script (0 = every script succeeded)
	timedOut bool   // the failing script was killed at PrologEpilogTimeout
	output   string // what the failing script printed (for the log)
	path     string // the failing script
}

func (r scriptResult) failed() bool { return r.status != 0 }

// String says how the script failed, in the words of Slurm's log ("prolog failed status=1:0").
func (r scriptResult) String() string {
	ws := syscall.WaitStatus(r.status)
	code, sig := 0, 0
	switch {
	case ws.Exited():
		code = ws.ExitStatus()
	case ws.Signaled():
		sig = int(ws.Signal())
	}
	s := fmt.Sprintf("status=%d:%d", code, sig)
	if r.timedOut {
		s += " (timed out)"
	}
	return s
}

// noTimeout is PrologEpilogTimeout's "unlimited" (Slurm's NO_VAL16).
const noTimeout = 65534

// scriptTimeout is PrologEpilogTimeout as a duration; 0 means no bound.
func (d *Daemon) scriptTimeout() time.Duration {
	v, ok := d.cfg.Get("PrologEpilogTimeout")
	if !ok || v == "" {
		return 0
	}
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil || n >= noTimeout {
		return 0
	}
	return time.Duration(n) * time.Second
}

// runScripts runs every script pattern names with env, stopping at the first failure.
func runScripts(pattern string, env []string, dir string, timeout time.Duration) scriptResult {
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		// Slurm: glob(3) found nothing (or the pattern is bad) → the script "fails".
		return scriptResult{status: 127 << 8, path: pattern, output: "Unable to create list of paths"}
	}
	for _, p := range paths {
		if r := runScript(p, env, dir, timeout); r.failed() {
			return r
		}
	}
	return scriptResult{}
}

// maxScriptOutput bounds what is kept of a script's output for the log.
const maxScriptOutput = 4096

// runScript runs one script and waits for it (bounded by timeout when it is positive).
func runScript(path string, env []string, dir string, timeout time.Duration) scriptResult {
	res := scriptResult{path: path}
	if !filepath.IsAbs(path) {
		res.status, res.output = 127<<8, "Run command failed - configuration error (not a fully qualified pathname)"
		return res
	}
	if err := unix.Access(path, unix.R_OK|unix.X_OK); err != nil {
		res.status, res.output = 127<<8, fmt.Sprintf("Run command failed - configuration error (%v)", err)
		return res
	}
	var out capped
	cmd := exec.Command(path)
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = []string{} // never slurmd's own environment
	}
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A background process left holding the output pipe must not keep slurmd waiting.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		res.status, res.output = 127<<8, err.Error()
		return res
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var err error
	select {
	case err = <-done:
	case <-timer:
		res.timedOut = true
		unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
		err = <-done
	}
	res.output = strings.TrimSpace(out.String())
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.status = 0
	case errors.As(err, &ee):
		res.status = int(ee.Sys().(syscall.WaitStatus))
	default:
		res.status, res.output = 127<<8, err.Error()
	}
	if res.timedOut && res.status == 0 {
		res.status = int(unix.SIGKILL) // killed at the timeout even if it exited 0 meanwhile
	}
	return res
}

// capped keeps the first maxScriptOutput bytes written to it and discards the rest (a
// chatty script must not grow slurmd's memory).
type capped struct{ b bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxScriptOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.b.String() }
