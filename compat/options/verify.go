package options

import (
	"errors"
	"io"
	"path"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// verifySbatch is what sbatch checks and fills in once every option is applied (its
// _opt_verify), then the spec's own Validate.
func (a *applier) verifySbatch(scriptArgs []string) error {
	js := a.js
	if err := a.resolveHostfiles(); err != nil { // hostfile.go
		return err
	}
	a.checkNodeListCount()
	if err := a.memoryExclusive(); err != nil {
		return err
	}
	if err := a.verifyHint(); err != nil {
		return err
	}
	if err := a.verifyCoreSpec(); err != nil {
		return err
	}
	if err := a.verifyBurstBuffer(); err != nil { // stored.go
		return err
	}
	if js.Input == "" {
		js.Input = "/dev/null"
	}
	js.Output = fullPath(js.Output, js.WorkDir)
	js.Error = fullPath(js.Error, js.WorkDir)
	js.Input = fullPath(js.Input, js.WorkDir)
	a.settleNodesAndTasks() // siteopts.go
	if js.NTasksPerNode != jobspec.NoVal && js.NTasks == jobspec.NoVal && js.NodesSet &&
		(js.MaxNodes == 0 || js.MinNodes == js.MaxNodes) {
		js.NTasks = js.MinNodes * js.NTasksPerNode
	}
	a.nodeShapeCounts()
	if js.Name == "" {
		if js.Wrap != "" {
			js.Name = "wrap"
		} else if len(scriptArgs) > 0 {
			js.Name = path.Base(scriptArgs[0])
		}
	}
	if err := js.Validate(); err != nil {
		var je *jobspec.Error
		if errors.As(err, &je) {
			return specError(a.cmd, je)
		}
		return err
	}
	return nil
}

// specError prints a jobspec error as the command does: controller errors after
// "Batch job submission failed: " (sbatch), "Job submit/allocate failed: " (salloc) or
// "Unable to allocate resources: " (srun), with status 1.
func specError(cmd Cmds, je *jobspec.Error) *Error {
	code := je.ExitCode
	if code == 0 {
		code = 1
	}
	msg := je.Msg
	if je.Controller {
		switch cmd {
		case Sbatch:
			msg = "Batch job submission failed: " + msg
		case Salloc:
			msg = "Job submit/allocate failed: " + msg // salloc's words for a refused request
		default:
			msg = "Unable to allocate resources: " + msg
		}
	}
	kind := "error"
	if je.Fatal {
		kind = "fatal"
	}
	return &Error{Stderr: cmdName(cmd) + ": " + kind + ": " + msg + "\n", ExitCode: code}
}

// memoryExclusive is Slurm's check that --mem, --mem-per-cpu and --mem-per-gpu are not
// given together on the command line or in #SBATCH; one given there overrides the others
// from the environment (_validate_memory_options).
func (a *applier) memoryExclusive() error {
	js := a.js
	cli := func(id string) bool { return hasKey(a.memBy, id) && a.memBy[id] == fromCLI }
	memCLI, cpuCLI, gpuCLI := cli("mem"), cli("mem-per-cpu"), cli("mem-per-gpu")
	set := 0
	for _, id := range []string{"mem", "mem-per-cpu", "mem-per-gpu"} {
		if hasKey(a.memBy, id) {
			set++
		}
	}
	switch {
	case b2i(memCLI)+b2i(cpuCLI)+b2i(gpuCLI) > 1:
		return &Error{Stderr: cmdName(a.cmd) + ": fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n", ExitCode: 1}
	case memCLI:
		js.MemPerCPU, js.MemPerTres = jobspec.NoVal64, ""
		js.Undefine("mem-per-cpu")
		js.Undefine("mem-per-gpu")
	case cpuCLI:
		js.MemPerNode, js.MemPerTres = jobspec.NoVal64, ""
		js.Undefine("mem")
		js.Undefine("mem-per-gpu")
	case gpuCLI:
		js.MemPerNode, js.MemPerCPU = jobspec.NoVal64, jobspec.NoVal64
		js.Undefine("mem")
		js.Undefine("mem-per-cpu")
	case set > 1:
		return &Error{Stderr: cmdName(a.cmd) + ": fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.\n", ExitCode: 1}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func hasKey(m map[string]source, k string) bool { _, ok := m[k]; return ok }

// fullPath is sbatch's _fullpath: a relative file name is made absolute against dir.
func fullPath(name, dir string) string {
	if name == "" || name[0] == '/' {
		return name
	}
	return dir + "/" + name
}

func readAll(r io.Reader) ([]byte, error) { return io.ReadAll(r) }
