package main

import "strings"

// taskGPUVars are the step's variables naming its GPUs on the node (srun's nodeEnv); with
// --gpus-per-task each task's name only its own.
var taskGPUVars = []string{"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK", "GPU_DEVICE_ORDINAL", "SLURM_STEP_GPUS"}

// taskGPUs is what local task i of a step with perTask GPUs per task sees of the node's
// GPUs: the i-th run of perTask of them (Slurm binds --gpus-per-task steps so; task 0 gets
// "0", task 1 "1" of "0,1"). Nothing when the step has no such count or the node's list is
// too short for the task.
func taskGPUs(env []string, perTask uint32, i int) []string {
	if perTask == 0 {
		return nil
	}
	var out []string
	for _, name := range taskGPUVars {
		v, ok := lookup(env, name)
		if !ok || v == "" {
			continue
		}
		ids := strings.Split(v, ",")
		lo, hi := i*int(perTask), (i+1)*int(perTask)
		if hi > len(ids) {
			return nil
		}
		out = append(out, name+"="+strings.Join(ids[lo:hi], ","))
	}
	return out
}
