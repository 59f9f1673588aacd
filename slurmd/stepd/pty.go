package stepd

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Winsize is a terminal's size in characters.
type Winsize struct{ Rows, Cols uint16 }

// openPty makes a pseudo-terminal pair for a task of srun --pty: the master, kept by the
// supervisor, and the slave, the task's stdin, stdout and stderr and its controlling
// terminal, owned by uid:gid as a login terminal is (mode 0620).
func openPty(size Winsize, uid, gid uint32) (master, slave *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	fail := func(what string, err error) (*os.File, *os.File, error) {
		master.Close()
		if slave != nil {
			slave.Close()
		}
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return fail("unlockpt", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		return fail("ptsname", err)
	}
	name := "/dev/pts/" + strconv.Itoa(n)
	sfd, err := unix.Open(name, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fail("open "+name, err)
	}
	slave = os.NewFile(uintptr(sfd), name)
	if os.Geteuid() == 0 {
		if err := unix.Fchown(sfd, int(uid), int(gid)); err != nil {
			return fail("chown "+name, err)
		}
		unix.Fchmod(sfd, 0o620)
	}
	if size.Rows > 0 || size.Cols > 0 {
		unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: size.Rows, Col: size.Cols})
	}
	return master, slave, nil
}

// SetWinsize gives the step's terminal (srun --pty) a new size; the task gets SIGWINCH.
// Without a terminal it does nothing.
func (s *Step) SetWinsize(size Winsize) {
	s.mu.Lock()
	m := s.ptyMaster
	s.mu.Unlock()
	if m != nil {
		unix.IoctlSetWinsize(int(m.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: size.Rows, Col: size.Cols})
	}
}
