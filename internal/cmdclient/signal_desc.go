package cmdclient

import (
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// SignalDesc puts --signal=[{R|B}:]sig[@time] into the job's request, as Slurm's
// slurm_opt_create_job_desc does for sbatch, salloc and an srun that allocates (the
// controller sends it before the time limit: slurmctld/ctld/job_warn_signal.go).
func SignalDesc(d *wire.JobDesc, js *jobspec.JobSpec) {
	s := js.Signal
	if s == nil {
		return
	}
	d.SignalNumber, d.SignalTime = int32(s.Number), int32(s.Time)
	if s.Batch {
		d.SignalFlags |= 1
	}
	if s.Reserv {
		d.SignalFlags |= 2
	}
}
