package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// `scontrol write batch_script` (MsgBatchScript): the script of a batch job the controller
// still knows, read back from the store (job_record_script.go). As Slurm's
// _slurm_rpc_dump_batch_script: an unknown id is ESLURM_INVALID_JOB_ID, someone else's job
// ESLURM_USER_ID_MISSING unless the caller is privileged, a job without a script (an salloc
// or srun allocation) ESLURM_JOB_SCRIPT_MISSING. A finished job keeps its script until it is
// purged (MinJobAge), as in Slurm.

// handleBatchScript serves MsgBatchScript: authenticate → find the job → check the owner →
// read the script (outside the lock: it is store I/O) → reply.
func (c *Controller) handleBatchScript(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.BatchScriptRequest)
	c.mu.RLock()
	j := c.t.jobs[r.JobID] // installed records are immutable
	c.mu.RUnlock()
	switch {
	case j == nil:
		return nil, slurmErr(errnoInvalidJobID)
	case j.UserID != id.UID && !c.privileged(id):
		return nil, slurmErr(errnoUserIDMissing) // "Invalid user id" (job_update.go)
	case !j.hasScript():
		return nil, slurmErr(errnoScriptMissing)
	}
	sc, err := c.jobScript(j)
	if err != nil {
		// Purged between the lookup and the read: the job is gone, as Slurm would say.
		c.log.Debug("batch script not readable", "job", j.JobID, "err", err)
		return nil, slurmErr(errnoInvalidJobID)
	}
	return &wire.BatchScriptReply{Script: sc.Script}, nil
}
