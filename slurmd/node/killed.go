package node

import "time"

// A terminate can overtake the launch it cancels: the controller's launch and its terminate
// travel on different connections, so a job cancelled just after it was scheduled may be
// terminated here before its batch script was started. Like Slurm's slurmd, the node then
// remembers the job as killed and refuses its late launch; a terminate that arrives while
// the job's slurmstepd is being started is applied as soon as it runs. (When requeue
// arrives, the launch must carry the job's restart count so a requeued job is not refused.)

// killedJob is a job the controller ended while it had no live step here.
type killedJob struct {
	at       time.Time
	timedOut bool
}

// killedMemory is how long a killed job is remembered: longer than a launch credential
// lives (auth's default is 120 s), after which a late launch is refused anyway.
const killedMemory = 5 * time.Minute

// markKilled records job as killed (under d.mu), forgetting entries older than killedMemory
// so the table stays small.
func (d *Daemon) markKilled(job uint32, timedOut bool, now time.Time) {
	for id, k := range d.killed {
		if now.Sub(k.at) > killedMemory {
			delete(d.killed, id)
		}
	}
	d.killed[job] = killedJob{at: now, timedOut: timedOut}
}

// wasKilled reports whether job was terminated before it ran here (under d.mu).
func (d *Daemon) wasKilled(job uint32, now time.Time) (killedJob, bool) {
	k, ok := d.killed[job]
	if !ok || now.Sub(k.at) > killedMemory {
		return killedJob{}, false
	}
	return k, true
}
