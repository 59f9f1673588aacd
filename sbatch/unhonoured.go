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
// controller applies it for an operator and ignores it for anyone else, as Slurm does) and
// --oversubscribe where the partition does not let jobs share CPUs. cfg is slurm.conf.
func refuseUnhonoured(js *jobspec.JobSpec, cfg *conf.Config) *options.Error {
	for _, c := range []struct {
		given bool
		name  string
	}{
		// Whole-node --exclusive and --exclusive=user are honoured; mcs sharing is not, so the
		// job would share nodes Slurm keeps apart. --oversubscribe changes nothing in a
		// partition with OverSubscribe=NO or EXCLUSIVE (Slurm ignores it there); with YES
		// Slurm would put it on CPUs other jobs hold, which Orbit's selection never does.
		{js.Exclusive == jobspec.SharedOK && oversubscribes(js.Partition, cfg), "--oversubscribe in a partition with OverSubscribe=YES"},
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

// oversubscribes says whether a partition the job may run in (the ones -p names, else the
// default) lets --oversubscribe jobs share CPUs: OverSubscribe=YES (FORCE shares every job's
// CPUs whatever it asks, a partition setting rather than an option of the job).
func oversubscribes(partitions string, cfg *conf.Config) bool {
	if cfg == nil {
		return false
	}
	names := strings.Split(partitions, ",")
	for _, p := range cfg.Partitions {
		named := false
		for _, n := range names {
			named = named || strings.TrimSpace(n) == p.Name
		}
		if (named || partitions == "" && p.Default) && strings.HasPrefix(p.OverSubscribe, "YES") {
			return true
		}
	}
	return false
}
