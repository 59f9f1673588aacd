package schedhost_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
	"github.com/orbit-hpc/orbit/slurmctld/schedhost"
)

const faultyPkg = "plugins/scheduler/internal/faulty/testdata/sched_faulty"

func state(seq uint64, mode string) scheduler.State {
	return scheduler.State{
		Seq:    seq,
		Config: scheduler.Config{SchedulerType: "sched/faulty", SchedulerParameters: "faulty=" + mode},
		Nodes:  []scheduler.Node{{Name: "n1", CPUs: 4, Usable: true}},
		Partitions: []scheduler.Partition{{Name: "debug", Nodes: []string{"n1"}, Up: true,
			MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite}},
		Jobs: []scheduler.Job{{ID: 7, State: scheduler.JobPending, Eligible: true, Priority: 1,
			Partition: "debug", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1}},
	}
}

func start(t *testing.T, opts schedhost.Options) *schedhost.Host {
	t.Helper()
	opts.ExtraDirs = append(opts.ExtraDirs, filepath.Dir(testbin.Path(t, faultyPkg)))
	opts.Type = "sched/faulty"
	h, err := schedhost.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// alive says whether pid is a live process (not a zombie).
func alive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

func TestHost_ScheduleOverGRPC(t *testing.T) {
	h := start(t, schedhost.Options{})
	ctx := context.Background()
	if _, err := h.Schedule(ctx, 1); !errors.Is(err, scheduler.ErrResync) {
		t.Fatalf("Schedule before Sync: %v, want ErrResync", err)
	}
	if err := h.Sync(ctx, state(1, "")); err != nil {
		t.Fatal(err)
	}
	if err := h.Update(ctx, scheduler.Delta{Seq: 5}); !errors.Is(err, scheduler.ErrResync) {
		t.Fatalf("Update with a gap: %v, want ErrResync across the wire", err)
	}
	p, err := h.Schedule(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Starts) != 1 || p.Starts[0].JobID != 7 || p.Starts[0].Nodes[0] != "n1" {
		t.Fatalf("plan = %+v, want job 7 started on n1", p)
	}
}

// TestHost_UpdateScheduleOverGRPC checks the one-call cycle against a plugin process: a
// delta that follows the Sync gets a plan, one with a gap ErrResync.
func TestHost_UpdateScheduleOverGRPC(t *testing.T) {
	h := start(t, schedhost.Options{})
	ctx := context.Background()
	if _, err := h.UpdateSchedule(ctx, scheduler.Delta{Seq: 2}, 1); !errors.Is(err, scheduler.ErrResync) {
		t.Fatalf("UpdateSchedule before Sync: %v, want ErrResync", err)
	}
	if err := h.Sync(ctx, state(1, "")); err != nil {
		t.Fatal(err)
	}
	p, err := h.UpdateSchedule(ctx, scheduler.Delta{Seq: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Starts) != 1 || p.Starts[0].JobID != 7 || p.Starts[0].Nodes[0] != "n1" {
		t.Fatalf("plan = %+v, want job 7 started on n1", p)
	}
	if _, err := h.UpdateSchedule(ctx, scheduler.Delta{Seq: 9}, 1); !errors.Is(err, scheduler.ErrResync) {
		t.Fatalf("UpdateSchedule with a gap: %v, want ErrResync across the wire", err)
	}
}

func TestHost_KilledPluginRestartsAndNeedsSync(t *testing.T) {
	h := start(t, schedhost.Options{RestartMin: time.Millisecond})
	ctx := context.Background()
	if err := h.Sync(ctx, state(1, "")); err != nil {
		t.Fatal(err)
	}
	old := h.Pid()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Calls fail (or ask for a resync) until the host has a new process that took a Sync.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("the plugin was not restarted")
		}
		_, err := h.Schedule(ctx, 2)
		if errors.Is(err, scheduler.ErrResync) {
			if err := h.Sync(ctx, state(3, "")); err == nil {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if p := h.Pid(); p == old || !alive(p) {
		t.Fatalf("pid after restart = %d (old %d)", p, old)
	}
	if _, err := h.Schedule(ctx, 3); err != nil {
		t.Fatal(err)
	}
}

func TestHost_HungPluginIsKilled(t *testing.T) {
	h := start(t, schedhost.Options{CallTimeout: 500 * time.Millisecond, RestartMin: time.Millisecond})
	ctx := context.Background()
	if err := h.Sync(ctx, state(1, "hang")); err != nil {
		t.Fatal(err)
	}
	old := h.Pid()
	var err error
	for range 3 { // the third call hangs
		if _, err = h.Schedule(ctx, 1); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "Schedule") {
		t.Fatalf("hung Schedule returned %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(old) {
		if time.Now().After(deadline) {
			t.Fatalf("hung plugin %d still alive", old)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHost_CloseKillsPlugin(t *testing.T) {
	h := start(t, schedhost.Options{})
	pid := h.Pid()
	h.Close()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("plugin %d survived Close", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHost_SocketDirInStateSaveLocation: the plugin's socket lives under SocketParent, a
// directory a killed controller left there is swept at the next start, and Close removes
// the running child's.
func TestHost_SocketDirInStateSaveLocation(t *testing.T) {
	parent, err := os.MkdirTemp("", "sh") // short: a socket path is at most 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	stale := filepath.Join(parent, "orbit-sched-12345")
	if err := os.MkdirAll(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	h := start(t, schedhost.Options{SocketParent: parent})
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale socket directory %s survived the start (%v)", stale, err)
	}
	dirs, _ := filepath.Glob(filepath.Join(parent, "orbit-sched-*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("socket directories' entries under %s = %v, want the plugin's socket", parent, dirs)
	}
	if err := h.Sync(context.Background(), state(1, "")); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if left, _ := filepath.Glob(filepath.Join(parent, "orbit-sched-*")); len(left) != 0 {
		t.Errorf("Close left %v", left)
	}
}

func TestFind_UnknownTypeNamesDirs(t *testing.T) {
	dir := t.TempDir()
	_, err := schedhost.Find("sched/nosuch", []string{dir})
	if err == nil || !strings.Contains(err.Error(), "sched/nosuch") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Find = %v, want the type and %s named", err, dir)
	}
	if _, err := schedhost.Find("sched/../../bin/sh", []string{dir}); err == nil {
		t.Fatal("a SchedulerType with a path was accepted")
	}
}

// FuzzExecutableName: a SchedulerType never yields a name with a path separator or dots.
func FuzzExecutableName(f *testing.F) {
	for _, s := range []string{"sched/backfill", "sched/builtin", "sched/../x", "sched/", "select/linear", "sched/a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, err := schedhost.ExecutableName(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(name, "/.") || !strings.HasPrefix(name, "sched_") {
			t.Fatalf("ExecutableName(%q) = %q", s, name)
		}
	})
}

// TestHost_LargeStateSync sends a State far over gRPC's default 4 MiB message limit (a
// 50,000-job queue): the plugin must take it, or a large cluster would never be scheduled.
func TestHost_LargeStateSync(t *testing.T) {
	h := start(t, schedhost.Options{})
	s := state(1, "")
	for i := range 50000 {
		j := s.Jobs[0]
		j.ID = uint32(100 + i)
		j.Name = "a-job-name-of-some-length"
		s.Jobs = append(s.Jobs, j)
	}
	ctx := context.Background()
	if err := h.Sync(ctx, s); err != nil {
		t.Fatalf("Sync of %d jobs: %v", len(s.Jobs), err)
	}
	if _, err := h.Schedule(ctx, 1); err != nil {
		t.Fatalf("Schedule after a large Sync: %v", err)
	}
}
