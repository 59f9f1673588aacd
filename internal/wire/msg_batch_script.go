package wire

// BatchScriptRequest asks the controller for one batch job's script (Slurm's
// REQUEST_BATCH_SCRIPT, sent by `scontrol write batch_script`). Only the job's owner, root,
// SlurmUser and operators get it.
type BatchScriptRequest struct {
	JobID uint32 `codec:"job_id"`
}

// BatchScriptReply answers MsgBatchScript (Slurm's RESPONSE_BATCH_SCRIPT) with the script as
// sbatch stored it, byte for byte. A job that is unknown, not the caller's, or has no script
// (an salloc or srun allocation) gets an error reply instead.
type BatchScriptReply struct {
	Script string `codec:"script"`
}

func init() {
	Register(MsgBatchScript, "REQUEST_BATCH_SCRIPT", func() any { return new(BatchScriptRequest) })
	Register(MsgBatchScriptReply, "RESPONSE_BATCH_SCRIPT", func() any { return new(BatchScriptReply) })
}
