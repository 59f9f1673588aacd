package bench_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// ingestClients are the concurrent submitters of issue 9's ingest figure ("8+ concurrent RPC
// clients"): a portal or workflow engine submitting over RPC, no process per job. Each client
// keeps inflight submissions in flight, each on its own connection, as a workflow engine
// running several sbatch at once does: Slurm's clients never pipeline requests on one
// connection, and neither does wire.Client. With one in flight a client waits a whole
// commit and fsync per job, so 8 such clients are bounded by 8 / (commit + fsync time).
var ingestClients = []struct{ clients, inflight int }{{8, 1}, {8, 4}, {32, 1}}

// BenchmarkIngest is issue 9's controller ingest figure: held jobs submitted by concurrent
// RPC clients against the slurmctld binary, each reply meaning the job is durable (the
// controller answers only after the job's commit). Two client shapes: "conn", one persistent
// connection per client as a long-lived submitter keeps, and "dial", a connection per job as
// sbatch makes. Each op is one job; the figure is durable jobs/s.
//
// After the run it checks that the controller lists every acknowledged job, so the figure
// never counts a job that was lost.
func BenchmarkIngest(b *testing.B) {
	c := cluster.Start(b, cluster.Options{Nodes: 4, CPUsPerNode: 1, InProcess: os.Getenv("ORBIT_BENCH_INPROCESS") != ""})
	cl, err := cmdclient.Load("sbatch", c.ConfPath)
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, ic := range ingestClients {
		for _, shape := range []string{"conn", "dial"} {
			name := fmt.Sprintf("%s_clients=%d", shape, ic.clients)
			if ic.inflight > 1 {
				name += fmt.Sprintf("_inflight=%d", ic.inflight)
			}
			n := ic.clients * ic.inflight // one submitting goroutine per job in flight
			b.Run(name, func(b *testing.B) {
				cpu := ctldCPU(b, c)
				b.ResetTimer()
				acked := ingest(b, c, cl, n, b.N, shape == "conn")
				b.StopTimer()
				b.ReportMetric(float64(acked)/b.Elapsed().Seconds(), "jobs/s")
				if cpu >= 0 && acked > 0 {
					// Wall time on a shared machine mostly measures the load; the
					// controller's own CPU per job does not.
					b.ReportMetric(float64((ctldCPU(b, c)-cpu).Microseconds())/float64(acked), "ctld-cpu-us/job")
				}
				total += acked
			})
		}
	}
	if got := len(c.Jobs(b)); got != total {
		b.Fatalf("controller lists %d jobs, %d were acknowledged", got, total)
	}
	b.Run("ctld", func(b *testing.B) { reportRSS(b, c) })
}

// ingest submits `jobs` held jobs from `clients` goroutines and returns how many were
// acknowledged; any failure stops the benchmark.
func ingest(b *testing.B, c *cluster.Cluster, cl *cmdclient.Client, clients, jobs int, persistent bool) int {
	b.Helper()
	var acked atomic.Int64
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	desc := queryDesc(c, "true", true)
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var conn *wire.Client
			defer func() {
				if conn != nil {
					conn.Close()
				}
			}()
			for i := w; i < jobs; i += clients {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				var rep wire.SubmitBatchJobReply
				var err error
				if persistent {
					if conn == nil {
						conn, err = wire.Dial(ctx, "tcp", cl.Addrs[0], wire.ClientOptions{MessageTimeout: cl.MessageTimeout, Signer: cl.Signer()})
					}
					if err == nil {
						err = conn.Call(ctx, wire.MsgSubmitBatchJob, desc, &rep)
					}
				} else {
					err = cl.Call(ctx, wire.MsgSubmitBatchJob, desc, &rep)
				}
				cancel()
				if err != nil {
					errs <- fmt.Errorf("submission %d: %w", i, err)
					return
				}
				acked.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return int(acked.Load())
}

// ctldCPU is the CPU time the controller process has used (user and system), or -1 when it
// runs in-process.
func ctldCPU(b *testing.B, c *cluster.Cluster) time.Duration {
	pid := c.ControllerPID()
	if pid == 0 {
		return -1
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Logf("controller stat: %v", err)
		return -1
	}
	// The fields after the command name, which is in parentheses and may hold spaces:
	// utime and stime are the 12th and 13th of them, in clock ticks (USER_HZ, 100 on Linux).
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return -1
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// reportRSS reports the controller's peak resident memory (VmHWM) when it runs as its own
// process.
func reportRSS(b *testing.B, c *cluster.Cluster) {
	pid := c.ControllerPID()
	if pid == 0 {
		return
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Logf("controller status: %v", err)
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			b.ReportMetric(float64(kb)/1024, "peak_rss_MB")
		}
	}
}
