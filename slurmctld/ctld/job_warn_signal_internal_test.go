package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestWarnDue: the controller's --signal warning is due sig_time seconds before a running
// job's end, only without B: (slurmstepd signals the batch shell), once per run: a requeue
// (a new run) makes it due again, and it is never due without an end time.
func TestWarnDue(t *testing.T) {
	const start, end = 1000, 1060 // -t 1
	job := func(sig int32, at int32, flags uint16, edit func(*jobRecord)) *jobRecord {
		j := &jobRecord{JobID: 7, State: uint32(states.JobRunning), TimeLimit: 1, StartTime: start, EndTime: end,
			desc: packDesc(&wire.JobDesc{SignalNumber: sig, SignalTime: at, SignalFlags: flags})}
		if edit != nil {
			edit(j)
		}
		return j
	}
	cases := []struct {
		name string
		j    *jobRecord
		now  int64
		due  bool
	}{
		{"before sig_time", job(10, 55, 0, nil), end - 56, false},
		{"at sig_time", job(10, 55, 0, nil), end - 55, true},
		{"after sig_time", job(10, 55, 0, nil), end - 1, true},
		{"R: is the same", job(10, 55, 2, nil), end - 55, true},
		{"B: is slurmstepd's", job(10, 55, 1, nil), end - 1, false},
		{"RB: is slurmstepd's", job(10, 55, 3, nil), end - 1, false},
		{"no --signal", job(0, 0, 0, nil), end - 1, false},
		{"sent in this run", job(10, 55, 0, func(j *jobRecord) { j.WarnSentRun = 1 }), end - 1, false},
		{"sent before a requeue", job(10, 55, 0, func(j *jobRecord) { j.WarnSentRun, j.Restarts = 1, 1 }), end - 1, true},
		{"sent after a requeue", job(10, 55, 0, func(j *jobRecord) { j.WarnSentRun, j.Restarts = 2, 1 }), end - 1, false},
		{"unlimited", job(10, 55, 0, func(j *jobRecord) { j.TimeLimit, j.EndTime = wire.Infinite, 0 }), end, false},
		{"pending", job(10, 55, 0, func(j *jobRecord) { j.State = uint32(states.JobPending) }), end - 1, false},
		{"suspended", job(10, 55, 0, func(j *jobRecord) { j.State = uint32(states.JobSuspended) }), end - 1, false},
		{"completing", job(10, 55, 0, func(j *jobRecord) { j.State = uint32(states.JobRunning | states.JobCompleting) }), end - 1, false},
		{"sig_time past the start", job(10, 600, 0, nil), start, true},
	}
	for _, tc := range cases {
		if got := warnDue(tc.j, tc.now); got != tc.due {
			t.Errorf("%s: warnDue at end%+d = %v, want %v", tc.name, tc.now-end, got, tc.due)
		}
	}
}

// TestWarnSent_Plan: recording the warning marks the job's current run and nothing else, and
// refuses a job that no longer runs (the tick saw it running under the same lock).
func TestWarnSent_Plan(t *testing.T) {
	tb := &tables{jobs: map[uint32]*jobRecord{
		1: {JobID: 1, State: uint32(states.JobRunning), Restarts: 2, desc: packDesc(new(wire.JobDesc))},
		2: {JobID: 2, State: uint32(states.JobComplete), desc: packDesc(new(wire.JobDesc))},
	}}
	e, err := warnSent{jobIDs: []uint32{1}}.plan(tb)
	if err != nil || len(e.jobs) != 1 || e.jobs[0].WarnSentRun != 3 || tb.jobs[1].WarnSentRun != 0 {
		t.Fatalf("plan: %+v, %v; want job 1 marked for run 3, the installed record untouched", e, err)
	}
	if warnDue(e.jobs[0], 1<<40) {
		t.Errorf("the marked record is still due its warning")
	}
	if _, err := (warnSent{jobIDs: []uint32{2}}).plan(tb); err == nil {
		t.Errorf("plan accepted a finished job")
	}
}
