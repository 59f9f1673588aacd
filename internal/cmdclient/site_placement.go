package cmdclient

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
)

// The placement options Orbit's selection does not model (--switches, -S/--core-spec)
// against slurm.conf, for sbatch, salloc and srun's own allocation. Each is accepted where
// the configuration makes it a provable no-op and refused by name otherwise. (--spread-job
// and --use-min-nodes are the controller's: job_submit.go, selection.WantNodes.)

// PlacementRefusal names the first of those options js gives that would change its
// placement here, or "" when none would: --switches under a topology plugin, and
// -S/--thread-spec where AllowSpecResourcesUsage lets jobs keep cores for themselves
// (without it they are dropped: SpecWarnings).
func PlacementRefusal(js *jobspec.JobSpec, cfg *conf.Config) string {
	s := &js.Site
	topology := ""
	if cfg != nil {
		topology, _ = cfg.Get("TopologyPlugin")
	}
	switch {
	case s.ReqSwitch != jobspec.NoVal && topology != "" && !strings.EqualFold(topology, "topology/none"):
		return "--switches with a topology plugin"
	case s.CoreSpec != jobspec.NoVal && allowSpec(cfg):
		return "--core-spec/--thread-spec with AllowSpecResourcesUsage"
	}
	return ""
}

// SpecWarnings is what prog prints, and drops from js, for -S or --thread-spec where
// AllowSpecResourcesUsage is off: Slurm ignores them there, with a note.
func SpecWarnings(prog string, js *jobspec.JobSpec, cfg *conf.Config) []string {
	s := &js.Site
	if s.CoreSpec == jobspec.NoVal || allowSpec(cfg) {
		return nil
	}
	name := "-S"
	if s.ThreadSpec {
		name = "--thread-spec"
	}
	s.CoreSpec, s.ThreadSpec = jobspec.NoVal, false
	return []string{prog + ": error: Ignoring " + name + " since it's not allowed by configuration (AllowSpecResourcesUsage = No)\n"}
}

func allowSpec(cfg *conf.Config) bool {
	if cfg == nil {
		return false
	}
	v, _ := cfg.Get("AllowSpecResourcesUsage")
	switch strings.ToLower(v) {
	case "yes", "true", "1", "y":
		return true
	}
	return false
}
