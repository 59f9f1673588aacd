package main

import (
	"log/slog"

	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

// takeRlimits moves the SLURM_RLIMIT_* variables of the step's environment into the limits
// its tasks start with (Slurm's set_user_limits): those the node's slurm.conf propagates
// (names, from slurmd) or the user asked for with --propagate. The tasks never see the
// variables; a malformed one stays in their environment and is logged, as in Slurm.
func takeRlimits(spec *stepd.StepSpec, names []string, log *slog.Logger) {
	reqs, env, problems := rlimits.Take(spec.Env, rlimits.SetOf(names))
	for _, p := range problems {
		log.Error(p, "job", spec.JobID, "step", spec.StepID)
	}
	spec.Rlimits, spec.Env = reqs, env
}
