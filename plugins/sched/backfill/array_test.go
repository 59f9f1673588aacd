package backfill

import "testing"

// An array's record behind a job that waits for the whole cluster: one pass starts as many
// of its tasks as fit before that job's reservation, naming the record once per task, as
// Slurm's backfill goes on with an array's next task; %N caps them with those running.
func TestBackfill_ArrayTasksInOnePass(t *testing.T) {
	for _, k := range []struct {
		name      string
		tasks     uint32
		throttle  uint32
		runningOf uint32 // a task of the array runs already (on n1, with job 1's CPUs)
		want      int
	}{
		{"all fit", 3, 0, 0, 3},
		{"more tasks than room", 8, 0, 0, 4}, // n2's 4 CPUs before job 2's reservation
		{"throttled", 8, 2, 0, 2},
		{"throttled with one running", 8, 2, 1, 1},
		{"last task", 1, 0, 0, 1},
	} {
		arr := job(3, 10, 1, 1, 30)
		arr.ArrayJobID, arr.ArrayTasks, arr.ArrayThrottle = 3, k.tasks, k.throttle
		s := holeState(arr)
		if k.runningOf != 0 {
			s.Jobs[0].ArrayJobID = 3 // job 1, running on n1, is one of its tasks
		}
		p := schedule(t, s)
		n := 0
		for _, st := range p.Starts {
			if st.JobID == 3 {
				n++
				if !st.Backfilled || st.Nodes[0] != "n2" {
					t.Errorf("%s: task start %+v, want backfilled on n2", k.name, st)
				}
			}
		}
		if n != k.want {
			t.Errorf("%s: %d starts of the array's record, want %d (plan %+v)", k.name, n, k.want, p.Starts)
		}
	}
}
