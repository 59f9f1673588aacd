package main

import (
	"fmt"
	"io"

	"golang.org/x/sys/unix"
)

// checkPty is srun --pty once the step exists, as Slurm's srun starts it: without a
// terminal on stdout (no window size to read) it says so and runs the step without a
// pseudo-terminal. On a terminal Orbit's slurmstepd cannot yet give task 0 one, so srun
// refuses by name rather than run the task without it. It returns srun's exit code, 0 to go
// on.
func checkPty(stderr io.Writer) int {
	if _, err := unix.IoctlGetWinsize(1, unix.TIOCGWINSZ); err != nil {
		fmt.Fprintf(stderr, "srun: error: ioctl(TIOCGWINSZ): %s\n", strerrorText(err)) // srun_prolog.go
		fmt.Fprintln(stderr, "srun: error: Not using a pseudo-terminal, disregarding --pty option")
		return 0
	}
	fmt.Fprintln(stderr, "srun: error: --pty on a terminal is not supported by Orbit yet")
	return 1
}
