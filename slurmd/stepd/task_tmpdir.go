package stepd

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"golang.org/x/sys/unix"
)

// tmpdirEnv is Slurm's _make_tmpdir for the first task of a node's share of a step, once
// its task prologs have run: without TMPDIR the task gets TMPDIR=/tmp; a TMPDIR is made
// (0700, as the user) when it does not exist, and one that cannot be made, is not a
// directory or is not writable for the user is replaced by /tmp, with slurmstepd's error
// lines on the task's stderr. Only that task's environment changes, as in Slurm (its other
// tasks keep what they were given). extra is the task's own variables, which win over env.
func (s *Step) tmpdirEnv(env, extra []string, st *stdio) []string {
	dir, ok := lastValue(extra, "TMPDIR")
	if !ok {
		dir, ok = lastValue(env, "TMPDIR")
	}
	if !ok {
		return append(extra, "TMPDIR=/tmp")
	}
	var msg string
	asUser(s.cred, func() error {
		err := unix.Mkdir(dir, 0o700)
		if err == nil {
			return nil
		}
		var fi os.FileInfo
		var statErr error
		switch fi, statErr = os.Stat(dir); {
		case statErr != nil:
			msg = fmt.Sprintf("Unable to create TMPDIR [%s]: %s", dir, strerror.Text(err))
		case !fi.IsDir():
			msg = fmt.Sprintf("TMPDIR [%s] is not a directory", dir)
		case unix.Faccessat(unix.AT_FDCWD, dir, unix.X_OK|unix.W_OK, unix.AT_EACCESS) != nil:
			msg = fmt.Sprintf("TMPDIR [%s] is not writeable", dir)
		}
		return errors.New(msg)
	})
	if msg == "" {
		return extra
	}
	p := s.spec.logPrefix()
	s.writeStderr(st, fmt.Sprintf("%s: error: %s\n%s: error: Setting TMPDIR to /tmp\n", p, msg, p))
	return append(extra, "TMPDIR=/tmp")
}

// lastValue is the value of the last name=value entry of env for name.
func lastValue(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}
