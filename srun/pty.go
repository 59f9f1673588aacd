package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/orbit-hpc/orbit/compat/strerror"
)

// ptyTerm is srun's side of --pty on a terminal, as Slurm's srun does it: task 0 runs on a
// pseudo-terminal of this terminal's size (slurmstepd makes it), srun's terminal is put in
// raw mode so that every key (Ctrl-C included) reaches the task, and size changes follow.
type ptyTerm struct {
	rows, cols uint16
	saved      *unix.Termios // stdin's settings to restore; nil when stdin is no terminal
	winch      chan os.Signal
}

// startPty is srun --pty once the step exists. Without a terminal on stdout (no window size
// to read) it says so, as Slurm's srun does, and the step runs without a pseudo-terminal
// (nil).
func startPty(stderr io.Writer) *ptyTerm {
	ws, err := unix.IoctlGetWinsize(1, unix.TIOCGWINSZ)
	if err != nil {
		fmt.Fprintf(stderr, "srun: error: ioctl(TIOCGWINSZ): %s\n", strerror.Text(err)) // srun_prolog.go
		fmt.Fprintln(stderr, "srun: error: Not using a pseudo-terminal, disregarding --pty option")
		return nil
	}
	p := &ptyTerm{rows: ws.Row, cols: ws.Col}
	if t, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		saved := *t
		p.saved = &saved
		raw := *t // cfmakeraw
		raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
		raw.Oflag &^= unix.OPOST
		raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
		raw.Cflag &^= unix.CSIZE | unix.PARENB
		raw.Cflag |= unix.CS8
		raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
		unix.IoctlSetTermios(0, unix.TCSETS, &raw)
	}
	return p
}

// follow sends the terminal's new size to task 0's node on every SIGWINCH until stop.
func (p *ptyTerm) follow(send func(rows, cols uint16)) (stop func()) {
	p.winch = make(chan os.Signal, 1)
	signal.Notify(p.winch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-p.winch:
				if ws, err := unix.IoctlGetWinsize(1, unix.TIOCGWINSZ); err == nil {
					send(ws.Row, ws.Col)
				}
			}
		}
	}()
	return func() { signal.Stop(p.winch); close(done) }
}

// restore gives srun's terminal its settings back.
func (p *ptyTerm) restore() {
	if p != nil && p.saved != nil {
		unix.IoctlSetTermios(0, unix.TCSETS, p.saved)
	}
}
