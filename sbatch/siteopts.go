package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// The site options (--hint, --threads-per-core, --tmp, --cpu-freq, ...; compat/jobspec
// SiteOptions) against slurm.conf. An option whose effect in Slurm 22.05 is only what it
// stores and exports is accepted; one that changes placement is accepted only where the
// configuration makes it a provable no-op (every node of the job's partitions already has
// what it asks), and refused by name otherwise, since Orbit's selection does not model it.
// --hint, --threads-per-core and --ntasks-per-core are modelled: the controller gives whole
// cores on nodes with several threads per core (plugins/sched/selection cores.go).

// refuseSiteOptions returns sbatch's refusal of a site option for this cluster.
func refuseSiteOptions(js *jobspec.JobSpec, cfg *conf.Config) *options.Error {
	s := &js.Site
	confIs := func(key string, want ...string) bool {
		v := cfgStr(cfg, key)
		for _, w := range want {
			if strings.EqualFold(v, w) {
				return true
			}
		}
		return false
	}
	if cmdclient.TmpDiskPartly(js, cfg) { // no node with the disk is the controller's refusal
		return refusal("--tmp where only some nodes have the TmpDisk")
	}
	for _, c := range []struct {
		given bool
		name  string
	}{
		// One socket, or one core on a socket, is what any allocation on a node has.
		{s.CoresPerSocket != jobspec.NoVal && s.CoresPerSocket != 1, "--cores-per-socket or -B cores other than 1"},
		{s.SocketsPerNode != jobspec.NoVal && s.SocketsPerNode != 1, "--sockets-per-node or -B sockets other than 1"},
		{s.MemBind != "" && strings.Contains(strings.ToLower(cfgStr(cfg, "TaskPlugin")), "affinity"), "--mem-bind with task/affinity"},
		{s.Profile != "" && s.Profile != "None" && !confIs("AcctGatherProfileType", "", "acct_gather_profile/none"), "--profile with an acct_gather_profile plugin"},
	} {
		if c.given {
			return refusal(c.name)
		}
	}
	if name := cmdclient.PlacementRefusal(js, cfg); name != "" {
		return refusal(name)
	}
	return nil
}

// siteWarnings is what sbatch prints and drops for a site option Slurm ignores in this
// configuration: -S/--thread-spec without AllowSpecResourcesUsage.
func siteWarnings(js *jobspec.JobSpec, cfg *conf.Config) []string {
	return cmdclient.SpecWarnings("sbatch", js, cfg)
}

func refusal(name string) *options.Error {
	return &options.Error{Stderr: "sbatch: error: " + name + " is not supported by Orbit's sbatch yet\n", ExitCode: 1}
}

func cfgStr(cfg *conf.Config, key string) string {
	if cfg == nil {
		return ""
	}
	v, _ := cfg.Get(key)
	return v
}
