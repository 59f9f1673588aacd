package ctld

import (
	"fmt"
	"syscall"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Job warning signals: sbatch/salloc/srun --signal=[{R|B}:]sig[@sig_time] (Slurm's
// warn_signal, warn_time, warn_flags and send_job_warn_signal).
//
// Without B:, the controller sends sig to every step of the job but not to the batch shell,
// sig_time seconds before the job's end time, once per run of the job. With B:, slurmstepd
// signals the batch shell itself from its own timer (slurmd/stepd, preTimeout) and the
// controller sends nothing, so the two never both signal: the batch step's timer ignores a
// signal without B:, and this file ignores one with it. R: only lets the job overlap a
// reservation with MaxStartDelay; Orbit has no reservations, so R: changes nothing here.
//
// Slurm checks every PERIODIC_TIMEOUT (30 s) and sends when end_time - now <= sig_time + 30
// (the man page's "up to 60 seconds earlier"); Orbit checks every second (limitsLoop) and
// sends when end_time - now <= sig_time, inside that window. As in Slurm 22.05 a SIGCONT
// goes first, the flag is saved with the job and cleared only by a requeue: extending the
// time limit with scontrol after the warning does not warn again (update_job leaves WARN_SENT
// alone).

// warnFlagBatch is wire.JobDesc.SignalFlags' B: bit (sbatch's --signal=B:).
const warnFlagBatch = 1

// warnDue says whether running job j is due its --signal warning at now: it asked for one
// without B:, has an end time, has not had it in this run and is within sig_time of its end.
func warnDue(j *jobRecord, now int64) bool {
	if j.descInt(descSignalNumber) <= 0 || !j.state().IsRunning() {
		return false // most jobs: read without unpacking the description, every second
	}
	d := j.Desc()
	switch {
	case d.SignalNumber <= 0 || d.SignalFlags&warnFlagBatch != 0:
		return false
	case !j.state().IsRunning() || j.state().IsCompleting() || j.EndTime == 0:
		return false
	case j.TimeLimit == wire.Infinite || j.TimeLimit == wire.NoVal:
		return false
	case j.WarnSentRun == j.Restarts+1:
		return false
	}
	return now >= j.EndTime-int64(d.SignalTime)
}

// warnSent records that the current run of a job had its --signal warning (Slurm's WARN_SENT).
type warnSent struct {
	jobIDs []uint32
}

func (ch warnSent) plan(t *tables) (*effects, error) {
	e := new(effects)
	for _, id := range ch.jobIDs {
		j := t.jobs[id]
		if j == nil || !j.state().IsRunning() {
			return nil, fmt.Errorf("job %d is not running", id)
		}
		n := j.clone()
		n.WarnSentRun = n.Restarts + 1
		e.jobs = append(e.jobs, n)
	}
	return e, nil
}

// sendWarnSignals sends the --signal warning to every running job that is due it (warnDue):
// it records the warning first and signals only once that is durable, so a job is never
// warned twice, even across a controller restart (at worst a crash in between loses one
// warning). Called by limitsLoop every second; the signal goes through the launch agent.
func (c *Controller) sendWarnSignals() {
	now := c.now().Unix()
	type warned struct {
		id     uint32
		signal int32
		nodes  []string
	}
	var due []warned
	c.mu.Lock()
	for _, j := range c.t.jobs {
		if warnDue(j, now) {
			due = append(due, warned{j.JobID, int32(j.descInt(descSignalNumber)), append([]string(nil), j.Nodes...)})
		}
	}
	if len(due) == 0 {
		c.mu.Unlock()
		return
	}
	ch := warnSent{jobIDs: make([]uint32, len(due))}
	for i, w := range due {
		ch.jobIDs[i] = w.id
	}
	p, err := c.apply(ch)
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot record warning signals", "err", err)
		return
	}
	for _, w := range due {
		c.log.Info("warning signal", "job", w.id, "signal", w.signal)
		// Flags 0: the steps, not the batch shell (KILL_STEPS_ONLY), as scancel --signal.
		// SIGCONT first, as Slurm does, so a stopped step can act on the warning.
		c.sendNodes(agentTask{kind: taskSignal, jobID: w.id, signal: int32(syscall.SIGCONT)}, w.nodes)
		c.sendNodes(agentTask{kind: taskSignal, jobID: w.id, signal: w.signal}, w.nodes)
	}
}
