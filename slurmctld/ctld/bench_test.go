package ctld_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// BenchmarkSubmit measures durable batch submissions per second from parallel RPC clients
// (each reply is sent only after the job is committed to the store).
func BenchmarkSubmit(b *testing.B) {
	f := newFixture(b, ctld.TestConfig{Nodes: 1})
	addr := f.c.Addr().String()
	var failed atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		cl, err := wire.Dial(ctx, "tcp", addr, wire.ClientOptions{Signer: auth.NewKeySigner(f.key, 0, 0)})
		if err != nil {
			b.Error(err)
			return
		}
		defer cl.Close()
		for pb.Next() {
			if err := cl.Call(ctx, wire.MsgSubmitBatchJob, script("true"), new(wire.SubmitBatchJobReply)); err != nil {
				failed.Add(1)
			}
		}
	})
	b.StopTimer()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d submissions failed", n)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}
