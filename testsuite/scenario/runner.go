package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Bounds on the runner's waits: guards against a hang, never performance expectations. A
// timed-out job needs its one-minute limit plus the reference's timeout sweep (every 30 s)
// plus KillWait (30 s there) to be over.
const (
	commandBound = 2 * time.Minute
	waitBound    = 5 * time.Minute
)

// Target is the cluster a run talks to.
type Target struct {
	BinDir  string // where sbatch, squeue, ... are (/usr/bin for the reference)
	Conf    string // its slurm.conf (SLURM_CONF)
	WorkDir string // the directory commands run in
	Orbit   bool   // run the orbit-only lines (never true for the shared reference)
	// Logf, when set, reports progress.
	Logf func(format string, a ...any)
	// AfterCapture, when set, runs after every capture (the recorder checks there that no
	// one else's job ran on the shared node meanwhile).
	AfterCapture func(Capture)
}

// Capture is what one command printed.
type Capture struct {
	Name  string // the scenario's capture name
	Line  int    // scenario line
	Cmd   string // the command name (sbatch, squeue, ...)
	Argv  []string
	Line0 string // the scenario's command line before $label expansion
	Out   string
	Err   string
	RC    int
	Orbit bool   // an orbit-only capture (checked against its shape lines)
	JobID string // a submit's job id
}

// Run executes the scenario's steps against target in order and returns every capture (raw,
// not normalised) and the job id bound to each label. A wait that is never satisfied or a
// submit that prints no job id ends the run with an error; a command's own failure is a
// capture (its exit status is part of what is compared).
func Run(ctx context.Context, target Target, steps []Step) ([]Capture, map[string]string, error) {
	logf := target.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ids := map[string]string{}
	var caps []Capture
	for _, st := range steps {
		switch st.Op {
		case OpShape:
			continue
		case OpOrbit:
			if !target.Orbit {
				continue
			}
		case OpWait:
			spec := Expand(st.Target, ids)
			logf("line %d: wait %s %s", st.Line, spec, strings.Join(st.States, ","))
			if err := waitStates(ctx, target, spec, st.States); err != nil {
				return caps, ids, fmt.Errorf("scenario line %d: %w", st.Line, err)
			}
			continue
		}
		argv := make([]string, len(st.Args))
		for i, a := range st.Args {
			argv[i] = Expand(a, ids)
		}
		logf("line %d: %s", st.Line, strings.Join(argv, " "))
		out, errOut, rc, err := command(ctx, target, argv)
		if err != nil {
			return caps, ids, fmt.Errorf("scenario line %d: %w", st.Line, err)
		}
		caps = append(caps, Capture{Name: st.Name, Line: st.Line, Cmd: argv[0], Argv: argv, Line0: strings.Join(st.Args, " "), Out: out, Err: errOut, RC: rc, Orbit: st.Op == OpOrbit})
		if target.AfterCapture != nil {
			target.AfterCapture(caps[len(caps)-1])
		}
		if st.Op == OpSubmit {
			id := submittedID.FindStringSubmatch(out)
			if rc != 0 || id == nil {
				return caps, ids, fmt.Errorf("scenario line %d: sbatch exited %d and printed no job id: %q %q", st.Line, rc, out, errOut)
			}
			ids[st.Label] = id[1]
			caps[len(caps)-1].JobID = id[1]
		}
	}
	return caps, ids, nil
}

// submittedID finds the id in "Submitted batch job N" or --parsable's "N[;cluster]".
var submittedID = regexp.MustCompile(`(?m)(?:^Submitted batch job |^)(\d+)(?:;\S*)?$`)

// command runs argv[0] from target.BinDir, invoked by its bare name as a user types it, in
// a clean environment naming the target's slurm.conf.
func command(ctx context.Context, target Target, argv []string) (string, string, int, error) {
	ctx, cancel := context.WithTimeout(ctx, commandBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(target.BinDir, argv[0]))
	cmd.Args = argv
	cmd.Dir = target.WorkDir
	cmd.Env = []string{"SLURM_CONF=" + target.Conf, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "LANG=C", "TZ=" + os.Getenv("TZ")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", "", 0, fmt.Errorf("%s did not finish within %v", strings.Join(argv, " "), commandBound)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return o.String(), e.String(), 0, nil
	case errors.As(err, &ee):
		return o.String(), e.String(), ee.ExitCode(), nil
	}
	return "", "", 0, fmt.Errorf("running %s: %w", argv[0], err)
}

// waitStates polls squeue until every line it prints for spec is one of states.
func waitStates(ctx context.Context, target Target, spec string, states []string) error {
	deadline := time.Now().Add(waitBound)
	last := ""
	for time.Now().Before(deadline) {
		out, errOut, rc, err := command(ctx, target, []string{"squeue", "-h", "-t", "all", "-j", spec, "-o", "%T"})
		if err != nil {
			return err
		}
		last = fmt.Sprintf("exit %d: %q %q", rc, out, errOut)
		lines := strings.Fields(out)
		if rc == 0 && len(lines) > 0 && !slices.ContainsFunc(lines, func(s string) bool { return !slices.Contains(states, s) }) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return fmt.Errorf("job %s not %s within %v; squeue said %s", spec, strings.Join(states, "/"), waitBound, last)
}
