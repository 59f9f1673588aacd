package options

import (
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// The GPU options. --gpus-per-node is honoured: Slurm 22.05 sends it as the job's
// tres_per_node ("gres:gpu:N", then --gres's elements after a comma), which is exactly a
// --gres request, so it reaches the controller in JobSpec.Gres. The others (--gpus,
// --gpus-per-task, --gpus-per-socket, --cpus-per-gpu, --mem-per-gpu, --ntasks-per-gpu,
// --gpu-bind, --gpu-freq) ask for per-job, per-task or per-socket GPU counts, binding or
// frequencies that Orbit's per-node GRES counting does not model. The per-job, per-task and
// per-socket counts (--gpus, --gpus-per-task, --gpus-per-socket, --cpus-per-gpu,
// --mem-per-gpu, --ntasks-per-gpu) are parsed and listed in JobSpec.UnmodelledGPU: on a
// cluster whose GresTypes has no gpu Slurm refuses each of them as an invalid GRES request
// (CheckUnmodelledGPU), and elsewhere the commands refuse them by name rather than run the
// job differently. --gpu-bind and --gpu-freq stay unimplemented in the table.

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

// CheckUnmodelledGPU is what sbatch, srun and salloc (prog) print and exit with for the
// GPU options in js.UnmodelledGPU given slurm.conf's GresTypes: without a gpu GRES, Slurm's
// own refusal of the request (--ntasks-per-gpu first says it needs a GPU specification);
// with one, Orbit's refusal by name. "" and 0 when there is none.
func CheckUnmodelledGPU(prog string, js *jobspec.JobSpec, gresTypes string) (stderr string, code int) {
	if len(js.UnmodelledGPU) == 0 {
		return "", 0
	}
	if jobspec.GresTypesHave(gresTypes, "gpu") {
		return prog + ": error: " + js.UnmodelledGPU[0] + " is not supported by Orbit yet\n", 1
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
