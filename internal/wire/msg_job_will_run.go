package wire

// JobWillRunRequest asks the controller when and where Job would start (Slurm's
// REQUEST_JOB_WILL_RUN, sent by sbatch and srun --test-only). It is a distinct Go type
// because the registry binds one Go type per message. Job.Script is empty for srun.
type JobWillRunRequest struct {
	Job JobDesc `codec:"job"`
}

// JobWillRunReply answers MsgJobWillRun (Slurm's REQUEST_JOB_WILL_RUN, a JobWillRunRequest):
// when and where the job would start if it were submitted
// now. Nothing is submitted; the controller only consumes the job id the job would have had,
// as Slurm does.
type JobWillRunReply struct {
	JobID     uint32 `codec:"job_id"`
	StartTime int64  `codec:"start_time"` // Unix seconds
	ProcCnt   uint32 `codec:"proc_cnt"`   // CPUs the job would be allocated
	NodeList  string `codec:"node_list"`  // hostlist of the nodes it would get
	Partition string `codec:"partition"`
	// UserMessage is what the job_submit logic wants printed (Slurm's job_submit_user_msg).
	UserMessage string `codec:"user_msg"`
}

func init() {
	Register(MsgJobWillRun, "REQUEST_JOB_WILL_RUN", func() any { return new(JobWillRunRequest) })
	Register(MsgJobWillRunReply, "RESPONSE_JOB_WILL_RUN", func() any { return new(JobWillRunReply) })
}
