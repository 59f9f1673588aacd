// Command slurmctld is Orbit's controller daemon. For now it validates the configuration
// (`slurmctld -t`, the way `sshd -t` does) and prints its version; the controller itself
// arrives with the next issue. Options and config lookup are in options.go, the check in
// check.go.
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
	fmt.Fprintln(stderr, "slurmctld: the Orbit controller is not implemented yet; only -t (check the configuration) and -V work in this release")
	return 1
}
