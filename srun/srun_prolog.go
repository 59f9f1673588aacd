package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/orbit-hpc/orbit/compat/strerror"
)

// srunScript runs srun's --prolog or --epilog (by default slurm.conf's SrunProlog and
// SrunEpilog; "none" runs nothing) as Slurm's srun does: on srun's own host with srun's
// environment and SLURM_SCRIPT_CONTEXT set to context, the step's command line as its
// arguments, its output where srun's goes. A script srun may not execute is skipped with
// Slurm's "Access denied" note. It returns the script's exit status (0 when none ran).
func srunScript(path, context string, argv []string, env []string, stdout, stderr io.Writer) int {
	if path == "" || strings.EqualFold(path, "none") {
		return 0
	}
	if err := unix.Access(path, unix.R_OK|unix.X_OK); err != nil {
		fmt.Fprintf(stderr, "srun: Access denied for %s: %s\n", path, strerror.Text(err))
		return 0
	}
	cmd := exec.Command(path, argv...)
	cmd.Env = append(append([]string(nil), env...), "SLURM_SCRIPT_CONTEXT="+context)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Exited() {
			return ws.ExitStatus()
		}
		fmt.Fprintln(stderr, "srun: error: script did not exit normally")
		return 1
	default:
		fmt.Fprintf(stderr, "srun: error: Failed to execute srun prolog/epilog script: %s\n", strerror.Text(err))
		return 127
	}
}

// runStepWithScripts runs the step between srun's prolog and epilog (srunScript). A
// failing prolog aborts the step, as Slurm's srun does: the step is still created and
// launched, and cancelled at once (a task quick enough may finish first).
func (s *session) runStepWithScripts(ctx context.Context, stdin io.Reader) int {
	prolog, epilog := s.c.Conf.SrunProlog, s.c.Conf.SrunEpilog
	if p := s.opts.spec.Prolog; p != "" {
		prolog = p
	}
	if e := s.opts.spec.Epilog; e != "" {
		epilog = e
	}
	id := strconv.FormatUint(uint64(s.jobID), 10)
	env := append(os.Environ(), "SLURM_JOB_ID="+id, "SLURM_JOBID="+id)
	if rc := srunScript(prolog, "prolog_srun", s.opts.argv, env, s.stdout, s.stderr); rc != 0 {
		fmt.Fprintf(s.stderr, "srun: error: srun prolog failed rc = %d. Aborting step.\n", rc)
		s.abortLaunch = true
	}
	code := s.runStep(ctx, stdin)
	if rc := srunScript(epilog, "epilog_srun", s.opts.argv, env, s.stdout, s.stderr); rc != 0 {
		fmt.Fprintf(s.stderr, "srun: error: srun epilog failed status=%d\n", rc)
	}
	return code
}
