package cmdclient

import "github.com/orbit-hpc/orbit/conf"

// TaskPlugin is the TaskPlugin of the slurm.conf in effect, for the --help texts that list
// binding options only where it offers them (options.HelpText); "" without a usable
// slurm.conf.
func TaskPlugin() string {
	cfg, err := conf.Load(conf.Locate(""))
	if err != nil {
		return ""
	}
	return cfg.TaskPlugin
}
