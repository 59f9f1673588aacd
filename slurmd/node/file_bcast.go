package node

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleFileBcast writes srun --bcast's copy of the step's program on one node: the caller
// must be the step's user (or root/SlurmUser) holding the step's credential for the node,
// as for its launch; the file is written as that user (so only where the user may write),
// replacing one already there, with the source's mode and modification time.
func (d *Daemon) handleFileBcast(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.FileBcast)
	if d.nodes[m.NodeName] == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if req.Identity == nil || (req.Identity.UID != m.UserID && !d.privileged(req)) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	lc, err := d.launchV.VerifyLaunch(m.Cred, m.NodeName)
	if err != nil {
		if errors.Is(err, auth.ErrLaunchExpired) {
			return nil, wire.Errorf(errnoCredentialExpired, "Job credential expired")
		}
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if lc.JobID != m.JobID || lc.StepID != m.StepID || lc.UID != m.UserID || lc.GID != m.GroupID {
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	dest := m.Dest
	if strings.HasSuffix(dest, "/") {
		dest += wire.BcastFileName(m.JobID, m.StepID, m.NodeName)
	}
	if !filepath.IsAbs(dest) {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "File broadcast destination %s is not an absolute path", dest)
	}
	if err := writeAsUser(dest, m); err != nil {
		d.log.Warn("file broadcast failed", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "file", dest, "err", err)
		return nil, wire.Errorf(wire.ErrnoSlurmError, "%s", strerror(err))
	}
	d.log.Info("sbcast", "uid", m.UserID, "job", m.JobID, "file", dest, "node", m.NodeName)
	return nil, nil
}

// writeAsUser writes m's data to dest with the file system rights of m's user: on a thread
// of its own whose fsuid and fsgid are the user's, left to end with the goroutine so that
// no other goroutine ever runs with them.
func writeAsUser(dest string, m *wire.FileBcast) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread goes when this goroutine ends
		if os.Geteuid() == 0 {
			unix.Setfsgid(int(m.GroupID))
			unix.Setfsuid(int(m.UserID))
		} else if uint32(os.Geteuid()) != m.UserID {
			done <- errors.New("slurmd cannot write files as another user")
			return
		}
		mode := os.FileMode(m.Mode & 0o7777)
		f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
		if err != nil {
			done <- err
			return
		}
		_, err = f.Write(m.Data)
		if err == nil {
			err = f.Chmod(mode) // the mode as the source's, whatever the umask
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && m.Mtime != 0 {
			t := time.Unix(m.Mtime, 0)
			err = os.Chtimes(dest, t, t)
		}
		done <- err
	}()
	return <-done
}

// strerror is the C library's text for a file error, as Slurm's srun prints the errno a
// broadcast failed with ("Permission denied").
func strerror(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
