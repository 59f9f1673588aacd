package stepd

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestStep_TaskPidEnvAndTaskEnv: each task sees TaskPidEnv set to its own pid (the pid the
// step reports for it) and its own variables over the step's, with one exec per task.
func TestStep_TaskPidEnvAndTaskEnv(t *testing.T) {
	var out [2]syncBuffer
	script := `echo "$SLURM_TASK_PID $$ $SLURM_PROCID $SLURM_LOCALID $STEP"; read go`
	spec := StepSpec{
		JobID: 78, StepID: "0", NodeName: "n1", Spool: t.TempDir(),
		UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), WorkDir: "/tmp",
		Env:        []string{"PATH=/usr/bin:/bin", "SLURM_PROCID=stale", "STEP=shared"},
		TaskPidEnv: "SLURM_TASK_PID",
	}
	for i := range out {
		spec.Tasks = append(spec.Tasks, Task{Rank: 10 + i, LocalID: i, Argv: []string{"/bin/sh", "-c", script},
			Env:   []string{"SLURM_PROCID=" + strconv.Itoa(i), "SLURM_LOCALID=" + strconv.Itoa(i)},
			Stdin: Stdio{Reader: strings.NewReader("")}, Stdout: Stdio{Writer: &out[i]}})
	}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	pids := s.Pids()
	exits := waitStep(t, s)
	for i, e := range exits {
		if e.String() != "1:0" { // read hits the end of input
			t.Errorf("task %d exit %s", i, e)
		}
		f := strings.Fields(out[i].String())
		if len(f) != 5 || f[0] != f[1] || f[2] != strconv.Itoa(i) || f[3] != f[2] || f[4] != "shared" {
			t.Fatalf("task %d printed %q: want SLURM_TASK_PID = its pid, its own SLURM_PROCID/LOCALID, the step's STEP", i, out[i].String())
		}
		if f[0] != strconv.Itoa(pids[i]) {
			t.Errorf("task %d: SLURM_TASK_PID %s, but the step started pid %d", i, f[0], pids[i])
		}
	}
}
