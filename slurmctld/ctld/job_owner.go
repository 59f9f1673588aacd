package ctld

import "github.com/orbit-hpc/orbit/internal/wire"

// jobOwner is Slurm's _valid_id: a new job belongs to the user and group that signed the
// request, unless it names others (sbatch, srun and salloc's --uid and --gid), which only
// root and SlurmUser may do ("super root can submit jobs as other users"). The signer still
// decides what needs privileges (RootOnly partitions, admin-only options); the owner is
// whom partition access, limits and the job's processes are for.
func (c *Controller) jobOwner(d *wire.JobDesc, id *wire.Identity) (*wire.Identity, error) {
	owner := *id
	if d.UserIDSet {
		owner.UID = d.UserID
	}
	if d.GroupIDSet {
		owner.GID = d.GroupID
	}
	switch {
	case c.slurmUser(id.UID):
	case owner.UID != id.UID:
		c.log.Warn("security violation: job for another user", "requested_uid", owner.UID, "uid", id.UID)
		return nil, slurmErr(errnoUserIDMissing)
	case owner.GID != id.GID:
		c.log.Warn("security violation: job for another group", "requested_gid", owner.GID, "uid", id.UID, "gid", id.GID)
		return nil, slurmErr(errnoGroupIDMissing)
	}
	return &owner, nil
}
