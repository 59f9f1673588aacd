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

	// Fields of JobActionUpdate (scontrol update JobId=...): numbers are NoVal, pointers
	// nil when the field is not being changed.
	TimeLimit  uint32  `codec:"time_limit"` // minutes, Infinite = UNLIMITED
	Partition  *string `codec:"partition"`
	MinNodes   uint32  `codec:"min_nodes"`
	MaxNodes   uint32  `codec:"max_nodes"`
	BeginTime  int64   `codec:"begin_time"` // StartTime=; 0 = unchanged
	Dependency *string `codec:"dependency"`
	Name       *string `codec:"name"`
	Comment    *string `codec:"comment"`
	Licenses   *string `codec:"licenses"`
	// Reservation names the advance reservation the job is to run in; "" takes it out of
	// its reservation.
	Reservation *string `codec:"reservation,omitempty"`
	// MailType (jobspec.Mail* bits) and MailUser ("" for the job's user at MailDomain).
	MailType *uint16 `codec:"mail_type,omitempty"`
	MailUser *string `codec:"mail_user,omitempty"`
	// RequeueFlags are scontrol requeue's and requeuehold's leading options (Requeue*).
	RequeueFlags uint32 `codec:"requeue_flags,omitempty"`
	// JobIDStr is scontrol top's list as given ("12,13_2,14_*"), which the controller
	// reads whole: the order of its jobs is the order of their new priorities.
	JobIDStr string `codec:"job_id_str,omitempty"`
	Priority uint32 `codec:"priority"`
	Nice     int32  `codec:"nice"`
	NiceSet  bool   `codec:"nice_set"`
}

// RequeueFlags: Incomplete requeues only jobs that are running or suspended (others are
// left alone, without an error); SpecialExit requeues held in the SPECIAL_EXIT state
// (State=SpecialExit).
const (
	RequeueIncomplete  uint32 = 1
	RequeueSpecialExit uint32 = 2
)

// Actions of UpdateJobRequest.
const (
	JobActionHold        uint16 = 1 // scontrol hold: an operator's hold (JobHeldAdmin), a user's own is JobHeldUser
	JobActionUserHold    uint16 = 2 // scontrol uhold: always JobHeldUser
	JobActionRelease     uint16 = 3 // scontrol release
	JobActionRequeue     uint16 = 4 // scontrol requeue
	JobActionRequeueHold uint16 = 5 // scontrol requeuehold: requeue, then held
	JobActionUpdate      uint16 = 6 // scontrol update JobId=...: the fields set in the request
	JobActionSuspend     uint16 = 7 // scontrol suspend (operators only)
	JobActionResume      uint16 = 8 // scontrol resume (operators only)
	JobActionTop         uint16 = 9 // scontrol top: first among the user's pending jobs
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
