package options

import "strings"

// helpAnchor is the --help line after which Slurm's sbatch, salloc and srun print the binding
// options their TaskPlugin supports.
const helpAnchor = "      --ntasks-per-socket=n   number of tasks to invoke on each socket\n"

const (
	helpCPUBind = "      --cpu-bind=             Bind tasks to CPUs\n" +
		"                              (see \"--cpu-bind=help\" for options)\n"
	helpHint = "      --hint=                 Bind tasks according to application hints\n" +
		"                              (see \"--hint=help\" for options)\n"
	helpMemBind = "      --mem-bind=             Bind memory to locality domains (ldom)\n" +
		"                              (see \"--mem-bind=help\" for options)\n"
)

// HelpText returns prog's --help text (help, as the reference prints it under task/none) with
// the binding options Slurm 22.05 adds for the configured TaskPlugin: srun lists --cpu-bind
// and --hint under task/affinity or task/cgroup and --mem-bind under task/affinity; sbatch
// and salloc list --hint and --mem-bind under task/affinity only.
func HelpText(prog, help, taskPlugin string) string {
	affinity := strings.Contains(taskPlugin, "affinity")
	var extra string
	switch {
	case prog == "srun":
		if affinity || strings.Contains(taskPlugin, "cgroup") {
			extra = helpCPUBind + helpHint
		}
		if affinity {
			extra += helpMemBind
		}
	case affinity:
		extra = helpHint + helpMemBind
	}
	if extra == "" {
		return help
	}
	return strings.Replace(help, helpAnchor, helpAnchor+extra, 1)
}
