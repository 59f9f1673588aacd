package main

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminalSignals are the signals Slurm's salloc treats as terminal (its sig_array).
var terminalSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGPIPE,
	syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGUSR2}

func notifySignals() chan os.Signal {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, terminalSignals...)
	return ch
}

func stopSignals(ch chan os.Signal) { signal.Stop(ch) }

func unixIgnoreTTOU() { signal.Ignore(syscall.SIGTTOU) }

// isTerminal says whether f is a terminal.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// foregroundTerminal says whether stdin is a terminal whose foreground process group is
// salloc's own: then salloc hands the terminal to the command (Slurm's is_interactive).
func foregroundTerminal() bool {
	if !isTerminal(os.Stdin) {
		return false
	}
	pg, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pg == syscall.Getpgrp()
}
