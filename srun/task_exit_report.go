package main

import (
	"cmp"
	"fmt"
	"slices"
	"syscall"
	"time"
)

// Slurm's srun prints a task's bad end when the exit notification arrives (_task_finish),
// not when the step ends: with "srun -n2", a task that exits 3 at once is reported while the
// other still runs. slurmstepd reaps the tasks that end together and reports them in one
// notification, which srun prints as one line ("tasks 0-1: Exited with exit code 3"). Orbit's
// slurmstepd sends each task's exit as it comes, so srun gathers the exits that arrive within
// exitGather of the first into one notification. The exits of the last tasks to end are left
// to the step's report (report), which groups them just so.
//
// Non-zero exit codes and signals are reported early. A signal is said only while srun has
// not given the step up (as Slurm's _task_finish, which stays quiet for a cancelled job);
// once it has, the step's report says what it says then. Out-of-memory ends and lost tasks
// depend on the other tasks' ends and are left to the step's report. With -v the
// notifications are reported at the end as before.

// exitGather is how long after one task's exit srun waits for the exits that came with it.
const exitGather = 20 * time.Millisecond

// earlyExits are exits waiting to be reported early (under relay.mu).
type earlyExits struct {
	pending []taskEnd
	timer   *time.Timer
}

// reportableEarly says whether e is reported when it arrives: a non-zero exit code or a
// signal, not Slurm's out-of-memory status.
func reportableEarly(e taskEnd) bool {
	ws := syscall.WaitStatus(e.status)
	return !e.lost && e.status&0xff != sigOOM && (ws.Signaled() || ws.Exited() && ws.ExitStatus() != 0)
}

// gatherExit queues e (just recorded by end, under r.mu) for an early report.
func (r *relay) gatherExit(e taskEnd) {
	if r.early == nil || !reportableEarly(e) || r.reported[e.rank] {
		return
	}
	r.early.pending = append(r.early.pending, e)
	if r.early.timer == nil {
		r.early.timer = time.AfterFunc(exitGather, r.reportEarly)
	}
}

// reportEarly prints the gathered exits, one line per node and exit code, and marks their
// tasks reported; if every task has ended meanwhile, the step's report prints them instead.
func (r *relay) reportEarly() {
	r.mu.Lock()
	defer r.mu.Unlock()
	pending := r.early.pending
	r.early.pending, r.early.timer = nil, nil
	select {
	case <-r.done:
		return
	default:
	}
	givenUp := r.givenUp != nil && r.givenUp()
	type group struct {
		node, what string
		ranks      []string
	}
	var groups []*group
	slices.SortFunc(pending, func(a, b taskEnd) int { return cmp.Compare(a.rank, b.rank) })
	for _, e := range pending {
		if r.reported[e.rank] || givenUp && syscall.WaitStatus(e.status).Signaled() {
			continue // srun -K reported it; the step's report judges a signal now
		}
		r.reported[e.rank] = true
		what := endText(e) // relay.go
		var g *group
		for _, x := range groups {
			if x.node == e.node && x.what == what {
				g = x
			}
		}
		if g == nil {
			g = &group{node: e.node, what: what}
			groups = append(groups, g)
		}
		g.ranks = append(g.ranks, fmt.Sprint(e.rank))
	}
	r.out.Lock()
	defer r.out.Unlock()
	for _, g := range groups {
		fmt.Fprintf(r.stderr, "srun: error: %s: %s %s: %s\n", g.node, tasksWord(len(g.ranks)), compressRanks(g.ranks), g.what)
	}
}
