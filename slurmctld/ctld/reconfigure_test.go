package ctld_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// partition is the named partition as the controller reports it.
func (f *fixture) partition(name string) wire.PartitionInfo {
	f.t.Helper()
	var rep wire.NodeInfoReply
	if err := f.call(0, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		f.t.Fatal(err)
	}
	for _, p := range rep.Partitions {
		if p.Name == name {
			return p
		}
	}
	f.t.Fatalf("no partition %s in %+v", name, rep.Partitions)
	return wire.PartitionInfo{}
}

// rewrite replaces old by new in the fixture's slurm.conf.
func (f *fixture) rewrite(old, new string) {
	f.t.Helper()
	data, err := os.ReadFile(f.conf)
	if err != nil {
		f.t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		f.t.Fatalf("slurm.conf lacks %q", old)
	}
	if err := os.WriteFile(f.conf, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// TestReconfigure_WhileSubmitting reconfigures while jobs are submitted (run it with -race):
// every submit is answered, the partition takes the new limits, update overrides are
// dropped, and a refused file changes nothing.
func TestReconfigure_WhileSubmitting(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.submit(0, script("#!/bin/sh\ntrue\n")); err != nil {
				errs <- err
			}
		}()
	}
	f.rewrite("MaxTime=INFINITE State=UP", "MaxTime=30 State=DOWN")
	for range 3 {
		if err := f.c.Reconfigure(context.Background()); err != nil {
			t.Errorf("Reconfigure: %v", err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("submit during reconfigure: %v", err)
	}
	if p := f.partition("debug"); p.MaxTime != 30 || p.State != "DOWN" {
		t.Errorf("after reconfigure: MaxTime %d State %s, want 30 DOWN", p.MaxTime, p.State)
	}

	// A run-time update is dropped by the next reconfigure, as in Slurm.
	if err := f.call(0, wire.MsgUpdatePartition, &wire.UpdatePartitionRequest{Name: "debug", State: "UP", MaxTime: wire.NoVal}, nil); err != nil {
		t.Fatalf("update partition: %v", err)
	}
	if p := f.partition("debug"); p.State != "UP" {
		t.Fatalf("after update: State %s", p.State)
	}
	if err := f.c.Reconfigure(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := f.partition("debug"); p.State != "DOWN" {
		t.Errorf("after reconfigure: State %s, want slurm.conf's DOWN", p.State)
	}

	// A broken file is refused and changes nothing.
	f.rewrite("MaxTime=30 State=DOWN", "MaxTime=40 State=UP NoSuchOption=1")
	err := f.c.Reconfigure(context.Background())
	if err == nil || !strings.Contains(err.Error(), "NoSuchOption") {
		t.Errorf("broken slurm.conf: %v, want an error naming NoSuchOption", err)
	}
	if p := f.partition("debug"); p.MaxTime != 30 || p.State != "DOWN" {
		t.Errorf("after a refused reconfigure: MaxTime %d State %s, want 30 DOWN", p.MaxTime, p.State)
	}
}
