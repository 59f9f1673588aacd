package main

import (
	"io"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// propagateRlimits sets SLURM_RLIMIT_<NAME> in srun's own environment (which every task
// environment starts from) with the soft limits srun started with, for the limits slurm.conf
// propagates or those --propagate names, as Slurm's srun does before it asks for anything.
// A bad --propagate list is Slurm's two error lines and exit 1.
func propagateRlimits(js *jobspec.JobSpec, c *cmdclient.Client, stderr io.Writer) int {
	given, list := false, ""
	if js != nil {
		given, list = js.PropagateSet, js.Propagate
	}
	env, msg, ok := rlimits.Command("srun", list, given, c.Conf.PropagateRlimits, rlimits.Current)
	io.WriteString(stderr, msg)
	if !ok {
		return 1
	}
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		os.Setenv(name, val)
	}
	return 0
}
