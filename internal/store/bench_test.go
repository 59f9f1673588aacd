package store

import (
	"bytes"
	"context"
	"runtime"
	"sync/atomic"
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

func reportCommits(b *testing.B, s *Store, n int64, elapsed time.Duration) {
	st := s.Stats()
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
	start := time.Now()
	for b.Loop() {
		id++
		if err := s.Commit(ctx, benchBatch(id)); err != nil {
			b.Fatal(err)
		}
	}
	reportCommits(b, s, id, time.Since(start))
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
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.Commit(ctx, benchBatch(id.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportCommits(b, s, id.Load(), time.Since(start))
}
