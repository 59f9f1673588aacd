package sinfo

import (
	"bytes"
	"errors"
	osexec "os/exec"
	"testing"
	"time"
)

// exec is one command run with a chosen argv[0].
type exec struct {
	path, argv0, dir string
	args, env        []string
}

// run runs the command, killing it if it outlives waitBound, and returns its stdout, stderr
// and exit status.
func (e *exec) run(t *testing.T) (string, string, int) {
	t.Helper()
	cmd := osexec.Command(e.path, e.args...)
	cmd.Args[0] = e.argv0
	cmd.Dir, cmd.Env = e.dir, e.env
	cmd.WaitDelay = time.Second
	var o, er bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &er
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", e.argv0, err)
	}
	timer := time.AfterFunc(waitBound, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	code := 0
	var ee *osexec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("running %s: %v", e.argv0, err)
	}
	return o.String(), er.String(), code
}
