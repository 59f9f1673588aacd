package wire

// StepPidsRequest asks a slurmd for the processes of the steps it runs on one of its nodes
// (scontrol listpids; Slurm's scontrol asks each slurmstepd). JobID 0 means every job;
// StepID "" every step of the job ("batch" names the batch step). A caller who is not an
// operator sees its own steps only.
type StepPidsRequest struct {
	NodeName string `codec:"node_name"`
	JobID    uint32 `codec:"job_id"`
	StepID   string `codec:"step_id"`
}

// StepPidsReply lists the matching steps, by job and then step (the batch step first).
type StepPidsReply struct {
	Steps []StepPids `codec:"steps"`
}

// StepPids is one step's processes: its tasks still running, then the other processes it
// tracks (their descendants), deepest first, as Slurm's proctrack lists them.
type StepPids struct {
	JobID  uint32    `codec:"job_id"`
	StepID string    `codec:"step_id"`
	Tasks  []TaskPid `codec:"tasks"`
	Others []uint32  `codec:"others"`
}

// TaskPid is one running task: its pid, its rank on the node and in the step.
type TaskPid struct {
	Pid      uint32 `codec:"pid"`
	LocalID  uint32 `codec:"local_id"`
	GlobalID uint32 `codec:"global_id"`
}

// PidJobRequest asks which job a process of the node belongs to (scontrol pidinfo; Slurm's
// REQUEST_JOB_ID). The reply is PidJobReply, or an Error (Invalid job id) when none.
type PidJobRequest struct {
	Pid uint32 `codec:"pid"`
}

// PidJobReply names the job.
type PidJobReply struct {
	JobID uint32 `codec:"job_id"`
}

func init() {
	Register(MsgStepPids, "REQUEST_STEP_PIDS", func() any { return new(StepPidsRequest) })
	Register(MsgStepPidsReply, "RESPONSE_STEP_PIDS", func() any { return new(StepPidsReply) })
	Register(MsgPidJob, "REQUEST_JOB_ID", func() any { return new(PidJobRequest) })
	Register(MsgPidJobReply, "RESPONSE_JOB_ID", func() any { return new(PidJobReply) })
}
