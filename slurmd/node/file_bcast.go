package node

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/orbit-hpc/orbit/compat/strerror"
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
	if _, err := d.verifyStepCaller(req, m.Cred, m.NodeName, m.JobID, m.StepID, m.UserID, m.GroupID); err != nil { // step_launch.go
		return nil, err
	}
	dest := m.Dest
	if strings.HasSuffix(dest, "/") {
		dest += wire.BcastFileName(m.JobID, m.StepID, m.NodeName)
	}
	if !filepath.IsAbs(dest) {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "File broadcast destination %s is not an absolute path", dest)
	}
	if m.Library != "" {
		// srun --send-libs: one of the program's libraries, into its library directory.
		if strings.Contains(m.Library, "/") || m.Library == "." || m.Library == ".." {
			return nil, wire.Errorf(wire.ErrnoSlurmError, "Invalid library name %q", m.Library)
		}
		dest = filepath.Join(dest+"_libs", m.Library)
	}
	err := writeAsUser(dest, m)
	if err == nil && m.SendLibs && m.Library == "" {
		err = asUser(m, func() error {
			if err := os.Mkdir(dest+"_libs", 0o700); err != nil && !errors.Is(err, os.ErrExist) {
				return err
			}
			return nil
		})
	}
	if err != nil {
		d.log.Warn("file broadcast failed", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "file", dest, "err", err)
		return nil, wire.Errorf(wire.ErrnoSlurmError, "%s", strerror.Text(err))
	}
	d.log.Info("sbcast", "uid", m.UserID, "job", m.JobID, "file", dest, "node", m.NodeName)
	return nil, nil
}

// writeAsUser writes m's data to dest with the file system rights of m's user (asUser).
func writeAsUser(dest string, m *wire.FileBcast) error {
	return asUser(m, func() error {
		mode := os.FileMode(m.Mode & 0o7777)
		f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
		if err != nil {
			return err
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
		return err
	})
}

// asUser runs op with the file system rights of m's user: on a thread of its own whose
// fsuid and fsgid are the user's, left to end with the goroutine so that no other goroutine
// ever runs with them.
func asUser(m *wire.FileBcast, op func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread goes when this goroutine ends
		if os.Geteuid() == 0 {
			// The user's group alone, on this thread only (the raw system call: Go's
			// Setgroups would change every thread): root's own groups must not open doors.
			gid := m.GroupID
			if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 1, uintptr(unsafe.Pointer(&gid)), 0); e != 0 {
				done <- e
				return
			}
			unix.Setfsgid(int(m.GroupID))
			unix.Setfsuid(int(m.UserID))
		} else if uint32(os.Geteuid()) != m.UserID {
			done <- errors.New("slurmd cannot write files as another user")
			return
		}
		done <- op()
	}()
	return <-done
}
