package store

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// benchPayload is about the size of an encoded job record with a short batch script.
var benchPayload = bytes.Repeat([]byte("#!/bin/bash\n#SBATCH -N1\nsrun hostname\n"), 24)

// benchBatch is one job submission: the job's record and the next job id.
func benchBatch(id int64) *Batch {
	var b Batch
	b.Put("job", crashKey(id), benchPayload)
	b.SetCounter("next_job_id", id+1)
	return &b
}

func reportCommits(b *testing.B, s *Store, n int64, elapsed time.Duration, cpu0 time.Duration) {
	st := s.Stats()
	if n > 0 {
		// Wall time on a shared machine mostly measures the load; the CPU spent does not.
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(n), "cpu-us/commit")
	}
	b.ReportMetric(float64(n)/elapsed.Seconds(), "commits/s")
	if st.Groups > 0 {
		b.ReportMetric(float64(st.Batches)/float64(st.Groups), "batches/group")
		b.ReportMetric(float64(st.CommitTime.Microseconds())/float64(st.Groups), "us/group")
	}
}

// BenchmarkCommitSerial is one submitter waiting for each durable commit in turn: every
// commit pays a full fsync.
func BenchmarkCommitSerial(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var id int64
	start, cpu0 := time.Now(), processCPU()
	for b.Loop() {
		id++
		if err := s.Commit(ctx, benchBatch(id)); err != nil {
			b.Fatal(err)
		}
	}
	reportCommits(b, s, id, time.Since(start), cpu0)
}

// BenchmarkCommitParallel is 16 submitters, each waiting for its own durable commit, as 16
// concurrent sbatch clients would: group commit shares each fsync among them.
func BenchmarkCommitParallel(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const committers = 16
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((committers + procs - 1) / procs)
	ctx := context.Background()
	var id atomic.Int64
	start, cpu0 := time.Now(), processCPU()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.Commit(ctx, benchBatch(id.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportCommits(b, s, id.Load(), time.Since(start), cpu0)
}

// BenchmarkWriteGroup is the writer's CPU per batch, without the fsync: groups of 1, 8 and
// 64 submission-shaped batches (record, script, next job id) written as one transaction each.
func BenchmarkWriteGroup(b *testing.B) {
	for _, n := range []int{1, 8, 64} {
		b.Run("batches="+strconv.Itoa(n), func(b *testing.B) { benchWriteGroup(b, n) })
	}
}

func benchWriteGroup(b *testing.B, groupSize int) {
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var id int64
	for b.Loop() {
		group := make([]*Pending, groupSize)
		for i := range group {
			id++
			bt := benchBatch(id)
			bt.Put("script", crashKey(id), benchPayload)
			group[i] = &Pending{batch: bt, done: make(chan struct{})}
		}
		var failed int
		if err := s.writeGroup(group, &failed); err != nil || failed != 0 {
			b.Fatal(err, failed)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(id), "us/batch")
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
