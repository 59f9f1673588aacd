package ctld

import "github.com/orbit-hpc/orbit/internal/wire"

// Step creation errors with Slurm 22.05's texts (srun prints "Unable to create step for job
// N: <text>"); where Orbit has not pinned Slurm's errno number yet, the generic one.
var (
	errStepNodes = &wire.Error{Errno: errnoInvalidNodeCount, Text: errnoTexts[errnoInvalidNodeCount]}
	errStepTasks = &wire.Error{Errno: wire.ErrnoSlurmError, Text: "Requested more nodes than tasks"}
	errStepCPUs  = &wire.Error{Errno: wire.ErrnoSlurmError, Text: "More processors requested than permitted"}
	// errStepBusy: the job could hold the step, but its other steps hold the CPUs now.
	errStepBusy = wire.NewError(wire.ErrnoNodesBusy)
	// errStepLimit: the job has created MaxStepCount steps (ESLURM_STEP_LIMIT).
	errStepLimit = &wire.Error{Errno: 2076, Text: "Step limit reached for this job"}
)
