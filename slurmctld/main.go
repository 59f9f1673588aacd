// Command slurmctld is Orbit's controller daemon (the controller itself is package
// slurmctld/ctld). It starts as Slurm's does: -D keeps it in the foreground, otherwise it
// detaches and writes SlurmctldPidFile; -f/SLURM_CONF/"/etc/slurm/slurm.conf" name the
// configuration; logs go to SlurmctldLogFile (and stderr with -D); SIGTERM and SIGINT stop it
// cleanly. It refuses to start on configuration errors, printing them as -t does. Options
// are in options.go, the -t check in check.go, the daemon's start in daemon.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr *os.File) int {
	opts, err := parseOptions(args)
	if err != nil {
		fmt.Fprintf(stderr, "slurmctld: %v\n", err)
		fmt.Fprint(stderr, usage)
		return 1
	}
	switch {
	case opts.help:
		fmt.Fprint(stdout, usage)
		return 0
	case opts.version:
		fmt.Fprintln(stdout, versionLine())
		return 0
	case opts.test:
		return checkConfig(opts.confPath, stdout, stderr)
	}
	return runDaemon(opts, args, stderr)
}
