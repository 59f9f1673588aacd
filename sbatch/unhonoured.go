package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/conf"
)

// refuseUnhonoured refuses options the shared table parses for sbatch but Orbit's controller
// and slurmd do not honour yet (issue 3: never silently ignored), so a job never runs where,
// when or how Slurm would not run it. Options whose only effect is what Orbit stores and
// shows (--comment, --account, --wckey, ...) stay accepted, and so do --signal (the
// controller signals the steps, slurmstepd the batch shell with B:), --priority (the
// controller applies it for an operator and ignores it for anyone else, as Slurm does). cfg is
// slurm.conf.
func refuseUnhonoured(js *jobspec.JobSpec, cfg *conf.Config) *options.Error {
	for _, c := range []struct {
		given bool
		name  string
	}{
		// Whole-node --exclusive, --exclusive=user and --oversubscribe are honoured; mcs
		// sharing is not, so the job would share nodes Slurm keeps apart.
		{js.Exclusive == jobspec.SharedMCS, "--exclusive=mcs"},
		// Orbit's malleable and power options (DESIGN.md §8) wait for sched/perfaware and
		// sched/poweraware; until then the job would run as a rigid one.
		{js.MinNodesInvasive != jobspec.NoVal, "--min-nodes-invasive"},
		{js.MaxNodesInvasive != jobspec.NoVal, "--max-nodes-invasive"},
		{js.NodeConstraints != "" && !strings.EqualFold(js.NodeConstraints, "none"), "--node-constraints"},
		{js.MinPower != jobspec.NoVal, "--min-power"},
		{js.MaxPower != jobspec.NoVal, "--max-power"},
	} {
		if c.given {
			return &options.Error{Stderr: "sbatch: error: " + c.name + " is not supported by Orbit's sbatch yet\n", ExitCode: 1}
		}
	}
	return refuseSiteOptions(js, cfg) // siteopts.go
}
