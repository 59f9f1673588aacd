package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFileName is the file in StateSaveLocation whose flock marks the directory as owned by
// one running controller. It holds that controller's PID so a refused one can name it.
const LockFileName = "orbit_state.lock"

// ErrLocked is returned (wrapped) by Open when another process holds the state directory.
var ErrLocked = errors.New("state directory is in use by another controller")

// dirLock is an exclusive flock on LockFileName. flock, unlike fcntl locks, belongs to the
// open file description, so a second Open in the same process is refused too, and the kernel
// drops it when the holder dies (kill -9 included): no stale lock survives a crash.
type dirLock struct {
	f *os.File
}

func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if holder != "" {
				return nil, fmt.Errorf("store: %s: %w (pid %s)", dir, ErrLocked, holder)
			}
			return nil, fmt.Errorf("store: %s: %w (pid unknown)", dir, ErrLocked)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	// Record our PID for the next one who is refused. A failure here does not weaken the
	// lock itself, so it is not fatal.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &dirLock{f: f}, nil
}

func readHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	s := strings.TrimSpace(string(buf[:n]))
	if _, err := strconv.Atoi(s); err != nil {
		return ""
	}
	return s
}

func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Closing the descriptor releases the flock. The PID is left in the file: it is only
	// read when the lock is held, and then it is the holder's.
	err := l.f.Close()
	l.f = nil
	return err
}
