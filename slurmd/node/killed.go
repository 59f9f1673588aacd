package node

import "time"

// A terminate can overtake the launch it cancels: the controller's launch and its terminate
// travel on different connections, so a job cancelled just after it was scheduled may be
// terminated here before its batch script was started. Like Slurm's slurmd, the node then
// remembers the job as killed and refuses its late launch; a terminate that arrives while
// the job's slurmstepd is being started is applied as soon as it runs. A requeued job is a
// new incarnation with a higher restart count, and its launch is not refused.

// killedJob is a job the controller ended while it had no live step here.
type killedJob struct {
	at       time.Time
	timedOut bool
	restarts uint32 // the incarnation that was terminated
}

// killedMemory is how long a killed job is remembered: longer than a launch credential
// lives (auth's default is 120 s), after which a late launch is refused anyway.
const killedMemory = 5 * time.Minute

// markKilled records job as killed (under d.mu), forgetting entries older than killedMemory
// so the table stays small.
// Jobs are kept per hosted node: a job shrunk off some nodes (scontrol update NumNodes=)
// still runs on the others this slurmd may host.
func (d *Daemon) markKilled(node string, job, restarts uint32, timedOut bool, now time.Time) {
	for id, nodes := range d.killed {
		for n, k := range nodes {
			if now.Sub(k.at) > killedMemory {
				delete(nodes, n)
			}
		}
		if len(nodes) == 0 {
			delete(d.killed, id)
		}
	}
	if d.killed[job] == nil {
		d.killed[job] = map[string]killedJob{}
	}
	d.killed[job][node] = killedJob{at: now, timedOut: timedOut, restarts: restarts}
}

// wasKilled reports whether incarnation restarts of job was terminated on node before it
// ran there (under d.mu).
func (d *Daemon) wasKilled(node string, job, restarts uint32, now time.Time) (killedJob, bool) {
	k, ok := d.killed[job][node]
	if !ok || now.Sub(k.at) > killedMemory || restarts > k.restarts {
		return killedJob{}, false
	}
	return k, true
}
