package options

import (
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/memsize"
)

// The GPU options. --gpus-per-node is honoured: Slurm 22.05 sends it as the job's
// tres_per_node ("gres:gpu:N", then --gres's elements after a comma), which is exactly a
// --gres request, so it reaches the controller in JobSpec.Gres. --gpus, --gpus-per-task,
// --cpus-per-gpu and --mem-per-gpu travel as Slurm's tres_per_job, tres_per_task,
// cpus_per_tres and mem_per_tres (gpuTres); the controller turns them into GPUs, CPUs and
// memory per node where the job's shape says how many GPUs each node gets (one node, or
// --ntasks-per-node), and refuses them otherwise. --gpus-per-socket and --ntasks-per-gpu
// are refused by name. On a cluster whose GresTypes has no gpu Slurm refuses each of them
// as an invalid GRES request (CheckUnmodelledGPU, from JobSpec.UnmodelledGPU). --gpu-bind
// and --gpu-freq are stored options.

// gpuOpts is what the GRES options of one command line set, kept apart so that the order of
// --gres and --gpus-per-node does not matter (Slurm builds tres_per_node from both at the end).
type gpuOpts struct {
	gres, gpusPerNode string
	gresSet, gpnSet   bool
}

// applyGpus sets --gres or --gpus-per-node and rebuilds the spec's GRES request from both.
func (a *applier) applyGpus(id, val string) {
	switch id {
	case "gres":
		a.gpu.gres, a.gpu.gresSet = val, true
	case "gpus-per-node":
		a.gpu.gpusPerNode, a.gpu.gpnSet = val, true
	}
	a.js.Gres = gresWithGpus(a.gpu.gres, a.gpu.gresSet, a.gpu.gpusPerNode, a.gpu.gpnSet)
}

// unmodelledGPU records one of the GPU options Orbit parses but does not model.
func (a *applier) unmodelledGPU(id string) {
	if !slices.Contains(a.js.UnmodelledGPU, "--"+id) {
		a.js.UnmodelledGPU = append(a.js.UnmodelledGPU, "--"+id)
	}
}

// gpuTres keeps --gpus, --gpus-per-task, --cpus-per-gpu and --mem-per-gpu as Slurm's job
// holds them (tres_per_job, tres_per_task, cpus_per_tres, mem_per_tres); the controller
// checks the values.
func (a *applier) gpuTres(id, val string) error {
	js := a.js
	switch id {
	case "gpus":
		js.TresPerJob = "gres:gpu:" + val
	case "gpus-per-task":
		js.TresPerTask = "gres:gpu:" + val
	case "cpus-per-gpu":
		n, err := parseInt(a.cmd, "--cpus-per-gpu", val) // Slurm's parse_int, positive
		if err != nil {
			return err
		}
		js.CpusPerTres = "gres:gpu:" + strconv.FormatUint(uint64(n), 10)
	case "mem-per-gpu":
		if mb, err := memsize.ParseMB(val); err == nil && mb != memsize.NoVal64 {
			js.MemPerTres = "gres:gpu:" + strconv.FormatUint(mb, 10)
		}
	}
	return nil
}

// CheckUnmodelledGPU is what sbatch, srun and salloc (prog) print and exit with for the
// GPU options in js.UnmodelledGPU given slurm.conf's GresTypes: without a gpu GRES, Slurm's
// own refusal of the request (--ntasks-per-gpu first says it needs a GPU specification);
// with one, Slurm's refusal of --gpus-per-task without a task count, and Orbit's refusal by
// name of --gpus-per-socket and --ntasks-per-gpu, which it does not model (--gpus,
// --gpus-per-task, --cpus-per-gpu and --mem-per-gpu go to the controller). "" and 0 when
// there is none.
func CheckUnmodelledGPU(prog string, js *jobspec.JobSpec, gresTypes string) (stderr string, code int) {
	if len(js.UnmodelledGPU) == 0 {
		return "", 0
	}
	if jobspec.GresTypesHave(gresTypes, "gpu") {
		for _, o := range js.UnmodelledGPU {
			if o == "--gpus-per-socket" || o == "--ntasks-per-gpu" {
				return prog + ": error: " + o + " is not supported by Orbit yet\n", 1
			}
		}
		if js.TresPerTask != "" && js.TresPerJob == "" && js.NTasks == jobspec.NoVal {
			return prog + ": error: Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.\n" +
				prog + ": error: " + jobspec.ErrInvalidGres.Error() + "\n", 1
		}
		return "", 0
	}
	if slices.Contains(js.UnmodelledGPU, "--ntasks-per-gpu") {
		stderr = prog + ": error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification\n"
	}
	return stderr + prog + ": error: " + jobspec.ErrInvalidGres.Error() + "\n", 1
}

// gresWithGpus is the job's per-node GRES request as slurm_opt_create_job_desc builds
// tres_per_node: "gpu:<--gpus-per-node>" first, then --gres unless it is "none" (which for a
// job means no GRES; alone it is kept, for srun's steps, where it means "not the job's").
func gresWithGpus(gres string, gresSet bool, gpn string, gpnSet bool) string {
	var parts []string
	if gpnSet && gpn != "" {
		parts = append(parts, "gpu:"+gpn)
	}
	if gresSet && gres != "" && !(strings.EqualFold(gres, "none") && len(parts) > 0) {
		parts = append(parts, gres)
	}
	return strings.Join(parts, ",")
}
