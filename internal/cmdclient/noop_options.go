package cmdclient

import (
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
)

// NoOpRefusal judges srun's and salloc's options that act only where the cluster has what
// they act on: --accel-bind=g binds tasks to GPUs (a no-op without a gpu GRES), --resv-ports
// reserves ports only with MpiParams=ports= (or a count, which Slurm then cannot reserve),
// and --x11 needs a DISPLAY (without one Slurm stops with exit 255, as here). It returns
// the line prog prints and its exit code, or "" and 0 when the options change nothing.
func NoOpRefusal(prog string, js *jobspec.JobSpec, cfg *conf.Config) (string, int) {
	mpiPorts := false
	if cfg != nil {
		v, _ := cfg.Get("MpiParams")
		mpiPorts = strings.Contains(strings.ToLower(v), "ports=")
	}
	gpus := cfg != nil && jobspec.GresTypesHave(cfg.GresTypes, "gpu")
	switch {
	case js.X11Set && os.Getenv("DISPLAY") == "":
		return prog + ": error: No DISPLAY variable set, cannot setup x11 forwarding.\n", 255
	case js.X11Set:
		return prog + ": error: --x11 is not supported by Orbit's " + prog + " yet\n", 1
	case strings.Contains(js.AccelBind, "g") && gpus:
		return prog + ": error: --accel-bind=g with GPUs is not supported by Orbit's " + prog + " yet\n", 1
	case js.ResvPortsSet && (js.ResvPorts > 0 || mpiPorts):
		return prog + ": error: --resv-ports with ports to reserve is not supported by Orbit's " + prog + " yet\n", 1
	}
	return "", 0
}
