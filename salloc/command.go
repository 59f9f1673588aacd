package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
	"golang.org/x/sys/unix"
)

// revokePoll is how often salloc asks whether its allocation still stands while the
// command runs. Slurm's controller tells salloc (SRUN_JOB_COMPLETE); Orbit's salloc asks.
const revokePoll = time.Second

// runCommand runs the command in the allocation and returns salloc's exit code.
func (s *session) runCommand(ctx context.Context, info *wire.JobAllocInfo, sigs chan os.Signal) int {
	if s.js.Verbose > 1 {
		s.layoutLine(info) // env.go
	}
	dir := s.js.WorkDir
	path, err := lookCommand(s.argv[0], dir)
	if err != nil {
		// Slurm's child reports it and exits with SLURM_EXIT_ERROR; salloc then releases.
		s.errorf("_fork_command: Unable to find command \"%s\"", s.argv[0])
		s.info("Relinquishing job allocation %d", s.jobID)
		s.release(ctx, uint32(s.codes.Error&0xff)<<8)
		return s.codes.Error
	}
	cmd := &exec.Cmd{Path: path, Args: s.argv, Env: s.allocEnv(info, os.Environ()), Dir: dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
	interactive := foregroundTerminal()
	if interactive {
		// As Slurm's salloc: the command's process group gets the terminal, and salloc
		// takes it back afterwards (ignoring SIGTTOU, which that would raise).
		cmd.SysProcAttr.Foreground, cmd.SysProcAttr.Ctty = true, 0
		unixIgnoreTTOU()
	}
	if err := cmd.Start(); err != nil {
		s.errorf("_fork_command: Unable to exec command \"%s\": %v", path, err)
		s.info("Relinquishing job allocation %d", s.jobID)
		s.release(ctx, uint32(s.codes.Error&0xff)<<8)
		return s.codes.Error
	}
	pid := cmd.Process.Pid
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	poll := time.NewTicker(revokePoll)
	defer poll.Stop()
	revoked, hangup := false, false
	revoke := func(timeout bool) {
		if timeout {
			s.info("Job %d has exceeded its time limit and its allocation has been revoked.", s.jobID)
		} else {
			s.info("Job allocation %d has been revoked.", s.jobID)
		}
		revoked = true
		if s.so.KillCommand != 0 {
			syscall.Kill(-pid, syscall.Signal(s.so.KillCommand))
		}
	}
wait:
	for {
		select {
		case <-done:
			break wait
		case sig := <-sigs:
			if sig == syscall.SIGHUP {
				// Passed on; salloc releases and exits without waiting for the command.
				syscall.Kill(-pid, syscall.SIGHUP)
				hangup = true
				break wait
			}
			// Slurm's handler gives the allocation back (NO_VAL status) and otherwise
			// ignores the signal; the end of the allocation then revokes it.
			if !revoked {
				s.release(ctx, wire.NoVal)
				revoke(false)
			}
		case <-poll.C:
			if revoked {
				continue
			}
			var cur wire.JobAllocInfo
			if err := s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: s.jobID}, &cur); err != nil {
				continue // the controller may be restarting; the allocation stands
			}
			if st := states.JobState(cur.State); !st.IsRunning() || st.IsCompleting() {
				revoke(st.Base() == states.JobTimeout)
			}
		}
	}
	if interactive {
		unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, syscall.Getpgrp())
	}
	var status uint32
	rc := 1
	if !hangup {
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		status = uint32(ws)
		switch {
		case ws.Exited():
			rc = ws.ExitStatus()
		case ws.Signaled():
			// A command ended by the user's hangup, interrupt, quit or kill is a normal end.
			switch ws.Signal() {
			case syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGKILL:
				rc = 0
			}
		}
	}
	if !revoked {
		s.info("Relinquishing job allocation %d", s.jobID)
		s.release(ctx, status)
	}
	return rc
}

// lookCommand finds the command as Slurm's search_path does: a name with a slash is taken
// relative to the working directory; a bare name is looked up in PATH.
func lookCommand(name, dir string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return "", os.ErrNotExist
		}
		return p, nil
	}
	return exec.LookPath(name)
}

// loginShell is the user's shell from the password database (Slurm's _get_shell), /bin/sh
// when it has none.
func loginShell() string {
	if sh := userdb.Shell(strconv.Itoa(os.Getuid())); sh != "" {
		return sh
	}
	return "/bin/sh"
}
