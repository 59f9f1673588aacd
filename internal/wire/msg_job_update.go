package wire

// UpdateJobRequest changes one job, one array task or a whole array (scontrol hold, uhold,
// release, requeue, requeuehold; Slurm's REQUEST_UPDATE_JOB with Priority=0 for a hold and
// REQUEST_JOB_REQUEUE). Further scontrol update fields are appended here as they are built.
type UpdateJobRequest struct {
	JobID uint32 `codec:"job_id"`
	// ArrayTaskID selects one task of array JobID; NoVal means the job itself, or every task
	// when JobID is an array's id.
	ArrayTaskID uint32 `codec:"array_task_id"`
	Action      uint16 `codec:"action"` // JobActionHold ...
}

// Actions of UpdateJobRequest.
const (
	JobActionHold        uint16 = 1 // scontrol hold: an operator's hold (JobHeldAdmin), a user's own is JobHeldUser
	JobActionUserHold    uint16 = 2 // scontrol uhold: always JobHeldUser
	JobActionRelease     uint16 = 3 // scontrol release
	JobActionRequeue     uint16 = 4 // scontrol requeue
	JobActionRequeueHold uint16 = 5 // scontrol requeuehold: requeue, then held
)

// UpdateJobReply answers MsgUpdateJob; Errno is 0 or a Slurm errno with its text (e.g. 2017
// "Invalid job id specified", 2024 "Job is pending execution", 2037 "Requested operation is
// presently disabled").
type UpdateJobReply struct {
	Errno int32  `codec:"errno"`
	Text  string `codec:"text"`
}

func init() {
	Register(MsgUpdateJob, "REQUEST_UPDATE_JOB", func() any { return new(UpdateJobRequest) })
	Register(MsgUpdateJobReply, "RESPONSE_UPDATE_JOB", func() any { return new(UpdateJobReply) })
}
