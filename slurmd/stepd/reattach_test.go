package stepd

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestState_ReattachFromAnotherProcess plays a restarted slurmd: another process (the test
// binary re-executed) supervises a step; this one finds it through the spool, sees it alive,
// lets it finish, and reads the recorded result.
func TestState_ReattachFromAnotherProcess(t *testing.T) {
	spool := t.TempDir()
	goFile := filepath.Join(t.TempDir(), "go")
	pid, exited := spawnHelper(t, spool, goFile)

	var st *State
	eventually(t, "the supervisor's state file", func() bool {
		steps, _ := ListSteps(spool)
		if len(steps) == 1 {
			st = steps[0]
		}
		return st != nil
	})
	if st.JobID != 4242 || st.StepID != BatchStep || st.Pid != pid || st.Status != StateRunning {
		t.Fatalf("state: job %d step %s pid %d status %s; want job 4242 step batch pid %d RUNNING",
			st.JobID, st.StepID, st.Pid, st.Status, pid)
	}
	if len(st.Tasks) != 1 || st.Tasks[0].Pid <= 0 || processDead(st.Tasks[0].Pid) {
		t.Errorf("state lists tasks %+v, want the running batch task", st.Tasks)
	}
	if want := filepath.Join(spool, "n1_4242.4294967294"); st.ControlSocket != want {
		t.Errorf("control socket %q, want %q", st.ControlSocket, want)
	}
	if !Alive(st) {
		t.Fatal("Alive = false for a running supervisor")
	}
	forged := *st
	forged.PidStart++
	if Alive(&forged) {
		t.Error("Alive = true for a pid whose start time differs (a recycled pid)")
	}

	if err := os.WriteFile(goFile, nil, 0644); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exited:
		if code != 0 {
			t.Fatalf("supervisor exited %d", code)
		}
	case <-time.After(testBound):
		t.Fatal("supervisor did not exit")
	}
	end, err := ReadState(StatePath(spool, 4242, BatchStep))
	if err != nil {
		t.Fatal(err)
	}
	if Alive(end) {
		t.Error("Alive = true after the supervisor exited")
	}
	if end.Status != StateFailed || end.ExitCode != "7:0" || len(end.TaskExits) != 1 || end.TaskExits[0].ExitCode != 7 {
		t.Errorf("final state %s ExitCode=%s exits %+v, want FAILED 7:0", end.Status, end.ExitCode, end.TaskExits)
	}
	if err := RemoveState(StatePath(spool, 4242, BatchStep)); err != nil {
		t.Fatal(err)
	}
	if steps, err := ListSteps(spool); len(steps) != 0 || err != nil {
		t.Errorf("after RemoveState: %d steps, %v", len(steps), err)
	}
}

func TestListSteps_BadFile(t *testing.T) {
	spool := t.TempDir()
	dir := JobDir(spool, 5)
	os.MkdirAll(dir, 0755)
	os.WriteFile(filepath.Join(dir, "step_0.state"), []byte("{not json"), 0600)
	steps, err := ListSteps(spool)
	if err == nil || len(steps) != 0 {
		t.Errorf("ListSteps with a corrupt file: %d steps, error %v; want the error", len(steps), err)
	}
	if Alive(nil) || Alive(&State{}) {
		t.Error("Alive of an empty state")
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add(1, "1 (systemd) S 0 1 1 0 -1 4194560 12 34 0 0 1 2 0 0 20 0 1 0 5 1000 10")
	f.Add(77, "77 (a b) c)) Z 1 77 77 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12345 0 0")
	f.Add(3, "3 (x")
	f.Add(3, ") R")
	f.Fuzz(func(t *testing.T, pid int, s string) {
		p, err := parseStat(pid, s)
		if err == nil && p.pid != pid {
			t.Fatalf("pid %d became %d", pid, p.pid)
		}
	})
}
