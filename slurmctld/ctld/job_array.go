package ctld

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Job arrays, as Slurm keeps them: one submission makes ONE record, the array's own (its job
// id is the array's id), holding the indices not yet started. When the scheduler starts a
// task, the task is split off into a record of its own with the next job id; the last task
// to start is the array's record itself, which so keeps the array's id. %N limits how many
// tasks run at once (pending reason JobArrayTaskLimit).

// errnoInvalidArray is ESLURM_INVALID_ARRAY.
const errnoInvalidArray = 2081

func init() { errnoTexts[errnoInvalidArray] = jobspec.ErrInvalidArray }

// setArray parses the job's --array (if any) into its record.
func (c *Controller) setArray(j *jobRecord) error {
	if j.descStr(descArraySpec) == "" {
		return nil
	}
	max := c.config().MaxArraySize
	if max == 0 {
		max = jobspec.DefaultMaxArraySize
	}
	spec, err := jobspec.ParseArray(j.descStr(descArraySpec), max)
	if err != nil || len(spec.Indices) == 0 {
		return slurmErr(errnoInvalidArray)
	}
	idx := spec.Indices
	j.ArrayPending = idx
	j.ArrayThrottle = spec.Throttle
	j.ArrayTaskID = wire.NoVal
	j.ArrayEnv = []uint32{uint32(len(idx)), idx[0], idx[len(idx)-1], arrayStep(idx)}
	return nil
}

// arrayStep is SLURM_ARRAY_TASK_STEP: the stride when the indices are evenly spaced, else 1.
func arrayStep(idx []uint32) uint32 {
	if len(idx) < 2 {
		return 1
	}
	step := idx[1] - idx[0]
	for i := 2; i < len(idx); i++ {
		if idx[i]-idx[i-1] != step {
			return 1
		}
	}
	return step
}

// isArrayRecord says whether j is an array's record that still holds pending indices.
func (j *jobRecord) isArrayRecord() bool { return j.ArrayJobID != 0 && len(j.ArrayPending) > 0 }

// taskIndex is the index j runs (or would run next, for an array's record); NoVal outside arrays.
func (j *jobRecord) taskIndex() uint32 {
	switch {
	case j.ArrayJobID == 0:
		return wire.NoVal
	case len(j.ArrayPending) > 0:
		return j.ArrayPending[0]
	}
	return j.ArrayTaskID
}

// formatIndices prints indices as Slurm's bitstring format does: "1,3,5-7".
func formatIndices(idx []uint32) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		k := i
		for k+1 < len(idx) && idx[k+1] == idx[k]+1 {
			k++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(idx[i]), 10))
		if k > i {
			b.WriteByte('-')
			b.WriteString(strconv.FormatUint(uint64(idx[k]), 10))
		}
		i = k + 1
	}
	return b.String()
}

// arrayInfo fills the array fields of a job's info.
func arrayInfo(j *jobRecord, info *wire.JobInfo) {
	if j.ArrayJobID == 0 {
		return
	}
	info.ArrayJobID = j.ArrayJobID
	info.ArrayMaxTasks = j.ArrayThrottle
	if j.isArrayRecord() {
		info.ArrayTaskID = wire.NoVal
		info.ArrayTaskStr = formatIndices(j.ArrayPending)
		if j.ArrayThrottle > 0 {
			info.ArrayTaskStr += "%" + strconv.FormatUint(uint64(j.ArrayThrottle), 10)
		}
		return
	}
	info.ArrayTaskID = j.ArrayTaskID
}

// arrayLaunch adds the array task's identity and Slurm's SLURM_ARRAY_TASK_COUNT/MIN/MAX/STEP
// (which slurmctld, not slurmd, puts in a task's environment) to its launch.
func arrayLaunch(j *jobRecord, m *wire.LaunchBatchJob) {
	if j.ArrayJobID == 0 {
		return
	}
	m.ArrayJobID, m.ArrayTaskID = j.ArrayJobID, j.ArrayTaskID
	if len(j.ArrayEnv) != 4 {
		return
	}
	env := make([]string, 0, len(m.Environment)+4)
	for _, kv := range m.Environment {
		if !strings.HasPrefix(kv, "SLURM_ARRAY_TASK_") {
			env = append(env, kv)
		}
	}
	for i, name := range []string{"COUNT", "MIN", "MAX", "STEP"} {
		env = append(env, fmt.Sprintf("SLURM_ARRAY_TASK_%s=%d", name, j.ArrayEnv[i]))
	}
	m.Environment = env
}

// throttled says whether an array's record may not start another task now.
func (j *jobRecord) throttled(running map[uint32]uint32) bool {
	return j.isArrayRecord() && j.ArrayThrottle > 0 && running[j.ArrayJobID] >= j.ArrayThrottle
}

// startChange is the change that starts j on a: the job itself, or for an array's record
// with more than one pending index, a new task record (the next job id) split off from it.
// It returns the id of the job that starts.
func (c *Controller) startChange(j *jobRecord, a allocation, now int64, backfill bool) (change, uint32) {
	st := startJob{jobID: j.JobID, nodes: a.nodes, cpusPerNode: a.cpus, memAlloc: a.mem, start: now, gres: a.gres,
		timeLimit: j.deadlineTimeLimit(now), partition: a.partition, backfill: backfill, magnetic: a.magnetic} // job_deadline.go
	if p := c.t.parts[cmp.Or(a.partition, j.Partition)]; p != nil && uint32(j.descUint(descTimeLimit)) == wire.NoVal &&
		(a.partition != "" || backfill && p.conf.DefaultTime == wire.NoVal && p.conf.MaxTime == wire.Infinite) {
		// A job of several partitions given no --time runs with the limit of the one it
		// starts in, as Slurm's select_nodes sets it then. One that backfill starts without
		// a limit from anywhere gets the year backfill plans with (YEAR_MINUTES), as in Slurm.
		k := *j
		k.TimeLimit = p.conf.DefaultTime
		if k.TimeLimit == wire.NoVal {
			k.TimeLimit = p.conf.MaxTime
		}
		if backfill && k.TimeLimit == wire.Infinite {
			k.TimeLimit = yearMinutes
		}
		st.timeLimit = cmp.Or(k.deadlineTimeLimit(now), k.TimeLimit)
	}
	if !j.isArrayRecord() {
		return st, j.JobID
	}
	if len(j.ArrayPending) == 1 {
		return startArrayTask{startJob: st, taskJobID: j.JobID}, j.JobID
	}
	return startArrayTask{startJob: st, taskJobID: c.t.nextJobID}, c.t.nextJobID
}

// yearMinutes is Slurm's YEAR_MINUTES: the time limit backfill gives a job that has none.
const yearMinutes = 365 * 24 * 60

// startArrayTask starts the first pending index of array record jobID: in the record itself
// when it is the last index, else in a new record taskJobID split off from it.
type startArrayTask struct {
	startJob
	taskJobID uint32
}

func (ch startArrayTask) plan(t *tables) (*effects, error) {
	rec := t.jobs[ch.jobID]
	if rec == nil || !rec.isArrayRecord() || !rec.state().IsPending() {
		return nil, fmt.Errorf("job %d is not a pending array", ch.jobID)
	}
	task, e, err := splitIndex(t, rec, rec.ArrayPending[0], ch.taskJobID)
	if err != nil {
		return nil, err
	}
	runOn(task, ch.startJob)
	task.BatchNode = t.pickBatchNode(task) // batch_host.go
	e.jobs = append(e.jobs, task)
	return e, nil
}

// splitIndex takes pending index idx of array record rec into a task record: rec itself when
// it is the last index (taskJobID must then be rec's id), else a copy with id taskJobID. The
// effects hold the array record's new version (if it remains); the caller adds the task.
func splitIndex(t *tables, rec *jobRecord, idx, taskJobID uint32) (task *jobRecord, e *effects, err error) {
	i := slices.Index(rec.ArrayPending, idx)
	if i < 0 {
		return nil, nil, fmt.Errorf("array %d has no pending task %d", rec.JobID, idx)
	}
	e = &effects{}
	task = rec.clone()
	task.ArrayTaskID = idx
	task.ArrayPending = nil
	if len(rec.ArrayPending) == 1 {
		if taskJobID != rec.JobID {
			return nil, nil, fmt.Errorf("array %d: last task must keep the array id", rec.JobID)
		}
		return task, e, nil
	}
	if _, dup := t.jobs[taskJobID]; dup || taskJobID == 0 {
		return nil, nil, fmt.Errorf("job %d already exists", taskJobID)
	}
	task.JobID = taskJobID
	rest := rec.clone()
	rest.ArrayPending = slices.Delete(slices.Clone(rec.ArrayPending), i, i+1)
	e.jobs = append(e.jobs, rest)
	e.nextJobID = taskJobID + 1
	return task, e, nil
}

// runOn sets a pending job RUNNING on the allocation of st, as startJob does.
func runOn(n *jobRecord, st startJob) {
	n.State = uint32(states.JobRunning)
	n.Reason = uint32(states.WaitNoReason)
	n.Nodes = st.nodes
	n.CPUsPerNode = st.cpusPerNode
	n.MemAlloc = st.memAlloc
	n.GresAlloc = st.gres
	n.StartTime = st.start
	n.Backfilled = st.backfill
	if st.partition != "" {
		n.Partition = st.partition // a job of several partitions runs in one (squeue shows it)
	}
	if st.timeLimit != 0 {
		n.TimeLimit = st.timeLimit
	}
	if st.magnetic != "" {
		n.editDesc(func(d *wire.JobDesc) { d.Reservation = st.magnetic })
		n.Magnetic = true
	}
	n.EndTime = 0
	if n.TimeLimit != wire.Infinite && n.TimeLimit != wire.NoVal {
		n.EndTime = st.start + int64(n.TimeLimit)*60
	}
}

// splitPending takes pending index idx of array record arrayID into a record of its own (a
// new id, or the array's record itself for its last index), still pending, so that one task
// can be cancelled, held or released alone, as Slurm does.
type splitPending struct {
	arrayID, idx, taskJobID uint32
	then                    func(task *jobRecord) // modifies the split-off task (its new state)
}

func (ch splitPending) plan(t *tables) (*effects, error) {
	rec := t.jobs[ch.arrayID]
	if rec == nil || !rec.isArrayRecord() {
		return nil, fmt.Errorf("job %d is not a pending array", ch.arrayID)
	}
	task, e, err := splitIndex(t, rec, ch.idx, ch.taskJobID)
	if err != nil {
		return nil, err
	}
	if ch.then != nil {
		ch.then(task)
	}
	e.jobs = append(e.jobs, task)
	return e, nil
}

// arrayTargets resolves (jobID, taskID) as scancel and scontrol name jobs, under the lock:
// one task ("12_3": a split-off task record, or a pending index of the array's record,
// returned as pendingIdx with the array's record), a whole array ("12" naming an array:
// every record of it), or one job. found is false when nothing matches.
func (t *tables) arrayTargets(jobID, taskID uint32) (recs []*jobRecord, pendingIdx uint32, arrayRec *jobRecord, found bool) {
	pendingIdx = wire.NoVal
	if taskID != wire.NoVal && taskID != wire.Infinite {
		for _, id := range t.sortedJobIDs() {
			j := t.jobs[id]
			if j.ArrayJobID != jobID {
				continue
			}
			if j.isArrayRecord() && slices.Contains(j.ArrayPending, taskID) {
				return nil, taskID, j, true
			}
			if !j.isArrayRecord() && j.ArrayTaskID == taskID {
				return []*jobRecord{j}, wire.NoVal, nil, true
			}
		}
		return nil, wire.NoVal, nil, false
	}
	j := t.jobs[jobID]
	if j != nil && (j.ArrayJobID == 0 || j.ArrayJobID != jobID) {
		return []*jobRecord{j}, wire.NoVal, nil, true
	}
	for _, id := range t.sortedJobIDs() {
		if r := t.jobs[id]; r.ArrayJobID == jobID {
			recs = append(recs, r)
		}
	}
	return recs, wire.NoVal, nil, len(recs) > 0
}
