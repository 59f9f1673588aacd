package stepd

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// testBound bounds every wait in these tests: reaching it is a failure (a hang), never a
// measurement.
const testBound = 60 * time.Second

// TestMain doubles as the "slurmstepd" of the reattach test: re-executed with
// STEPD_TEST_SUPERVISE=<spool>, the test binary runs one step and exits when it ends.
func TestMain(m *testing.M) {
	if spool := os.Getenv("STEPD_TEST_SUPERVISE"); spool != "" {
		os.Exit(superviseHelper(spool, os.Getenv("STEPD_TEST_GO")))
	}
	os.Exit(m.Run())
}

// superviseHelper runs a batch step that waits for the file goFile, then exits 7.
func superviseHelper(spool, goFile string) int {
	s, err := Start(StepSpec{
		JobID: 4242, StepID: BatchStep, NodeName: "n1", Spool: spool,
		UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), WorkDir: "/tmp",
		Env:       []string{"PATH=/usr/bin:/bin", "GO=" + goFile},
		Script:    []byte("#!/bin/sh\nwhile [ ! -e \"$GO\" ]; do sleep 0.1; done\nexit 7\n"),
		Tasks:     []Task{{}},
		TimeLimit: int(testBound / time.Second), KillWait: 1,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 100
	}
	s.Wait()
	return 0
}

// spawnHelper re-executes the test binary as a step supervisor; the returned channel yields
// its exit code.
func spawnHelper(t *testing.T, spool, goFile string) (int, <-chan int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "STEPD_TEST_SUPERVISE="+spool, "STEPD_TEST_GO="+goFile)
	pid, ch, err := forkRegistered(func() (int, error) {
		return syscall.ForkExec(exe, []string{exe, "-test.run=^$"}, &syscall.ProcAttr{
			Env: env, Files: []uintptr{0, 1, 2},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan int, 1)
	go func() {
		ws, ok := <-ch
		if !ok {
			out <- -1
			return
		}
		out <- ws.ExitStatus()
	}()
	return pid, out
}

// waitStep waits for the step to end, failing the test if it hangs.
func waitStep(t *testing.T, s *Step) []TaskExit {
	t.Helper()
	select {
	case <-s.Done():
		return s.Wait()
	case <-time.After(testBound):
		s.Kill()
		t.Fatalf("step did not end within %v", testBound)
		return nil
	}
}

// eventually polls cond until it holds, failing the test at testBound.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testBound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// batchSpec is a batch step running script as the current user.
func batchSpec(t *testing.T, script string) StepSpec {
	return StepSpec{
		JobID: 1234, StepID: BatchStep, NodeName: "n1",
		Spool: t.TempDir(), UID: uint32(os.Getuid()), GID: uint32(os.Getgid()),
		WorkDir: t.TempDir(), Env: []string{"PATH=/usr/bin:/bin"},
		Script: []byte(script), Tasks: []Task{{}}, KillWait: 1,
		TimeLimit: int(testBound / time.Second),
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// processDead reports whether pid no longer runs (gone, or a zombie about to be reaped).
func processDead(pid int) bool {
	p, err := readProc(pid)
	return err != nil || p.state == 'Z' || p.state == 'X'
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}
