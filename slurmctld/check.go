package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/orbit-hpc/orbit/conf"
)

// checkConfig loads the configuration and prints every problem: warnings (values Slurm would
// reset or ignore) as "slurmctld: warning: ...", errors as "slurmctld: error: ...", then
// Slurm's closing "fatal" line when there were errors. It returns the exit status.
func checkConfig(flagPath string, stdout, stderr io.Writer) int {
	path := conf.Locate(flagPath)
	cfg, err := conf.Load(path)
	if cfg != nil {
		for _, w := range cfg.Warnings {
			fmt.Fprintf(stderr, "slurmctld: warning: %s\n", w)
		}
	}
	if err != nil {
		var es conf.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				fmt.Fprintf(stderr, "slurmctld: error: %s\n", e)
			}
		} else {
			fmt.Fprintf(stderr, "slurmctld: error: %v\n", err)
		}
		fmt.Fprintf(stderr, "slurmctld: fatal: Unable to process configuration file %s\n", path)
		return 1
	}
	fmt.Fprintf(stdout, "slurmctld: configuration %s is valid (%d nodes, %d partitions)\n", path, len(cfg.Nodes), len(cfg.Partitions))
	return 0
}
