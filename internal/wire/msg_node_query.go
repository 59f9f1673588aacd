package wire

// StepPidsRequest asks a slurmd for the processes of the steps it runs on one of its nodes
// (scontrol listpids and getent; Slurm's scontrol asks each slurmstepd). JobID 0 means every
// job; StepID "" every step of the job ("batch" names the batch step). Any local user sees
// every step, as Slurm's slurmstepd lists its pids to anyone.
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
	UID    uint32    `codec:"uid"` // the job's user (scontrol getent)
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

// DaemonStatusRequest asks a slurmd how it is (scontrol show slurmd). NodeName picks one of
// the nodes it hosts ("" = the first).
type DaemonStatusRequest struct {
	NodeName string `codec:"node_name"`
}

// DaemonStatusReply is Slurm's slurmd_status_t: the machine as detected (not slurm.conf's
// figures), the daemon and the node's running steps.
type DaemonStatusReply struct {
	StepList    string `codec:"step_list"` // "NONE", or "12, 12.0": a batch step by its job id
	CPUs        uint32 `codec:"cpus"`
	Boards      uint32 `codec:"boards"`
	Sockets     uint32 `codec:"sockets"`
	Cores       uint32 `codec:"cores"` // per socket
	Threads     uint32 `codec:"threads"`
	RealMemory  uint64 `codec:"real_memory"` // MiB
	TmpDisk     uint32 `codec:"tmp_disk"`    // MiB of TmpFS
	Booted      int64  `codec:"booted"`      // when the daemon started
	Hostname    string `codec:"hostname"`    // the node's name
	LastCtldMsg int64  `codec:"last_ctld_msg"`
	Pid         uint32 `codec:"pid"`
	Debug       uint32 `codec:"debug"`
	LogFile     string `codec:"log_file"`
	Version     string `codec:"version"`
}

func init() {
	Register(MsgDaemonStatus, "REQUEST_DAEMON_STATUS", func() any { return new(DaemonStatusRequest) })
	Register(MsgDaemonStatusReply, "RESPONSE_SLURMD_STATUS", func() any { return new(DaemonStatusReply) })
	Register(MsgStepPids, "REQUEST_STEP_PIDS", func() any { return new(StepPidsRequest) })
	Register(MsgStepPidsReply, "RESPONSE_STEP_PIDS", func() any { return new(StepPidsReply) })
	Register(MsgPidJob, "REQUEST_JOB_ID", func() any { return new(PidJobRequest) })
	Register(MsgPidJobReply, "RESPONSE_JOB_ID", func() any { return new(PidJobReply) })
}
