package wire

// UpdateStepRequest changes live steps (scontrol update StepId=JOB[.STEP] TimeLimit=; Slurm's
// REQUEST_UPDATE_JOB_STEP): StepID NoVal names every running step of the job. TimeLimit is
// in minutes (Infinite: none); a relative +N/-N is resolved by scontrol first, as Slurm's.
type UpdateStepRequest struct {
	JobID     uint32 `codec:"job_id"`
	StepID    uint32 `codec:"step_id"`
	TimeLimit uint32 `codec:"time_limit"`
}

// StepTimeLimit gives one live step on the nodes it names its new time limit (minutes from
// the step's start; Infinite: none): the controller's part of scontrol update StepId=, which
// the node hands to the step's slurmstepd (it ends the step at its limit).
type StepTimeLimit struct {
	NodeName  string `codec:"node_name"`
	JobID     uint32 `codec:"job_id"`
	StepID    uint32 `codec:"step_id"`
	TimeLimit uint32 `codec:"time_limit"`
}

func init() {
	Register(MsgUpdateStep, "REQUEST_UPDATE_JOB_STEP", func() any { return new(UpdateStepRequest) })
	Register(MsgStepTimeLimit, "REQUEST_STEP_TIME_LIMIT", func() any { return new(StepTimeLimit) })
}
