package bench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// The ping sweep figures of issue 9: one slurmd process emulating N nodes, SlurmdTimeout=3
// so the controller sweeps every second, TreeWidth at Slurm's default. The controller logs
// each sweep ("ping sweep": nodes, milliseconds, connections, peak goroutines, with debug
// logging, which the test cluster turns on); the benchmark reads those records for sweeps
// that pinged every node, and samples the controller's open sockets from /proc meanwhile.

func BenchmarkPingSweep1000(b *testing.B) { benchPingSweep(b, 1000) }
func BenchmarkPingSweep5000(b *testing.B) { benchPingSweep(b, 5000) }

var logKV = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)

// sweepRecords returns the controller's "ping sweep" log records that reached all n nodes.
func sweepRecords(b *testing.B, c *cluster.Cluster, n int) []map[string]string {
	data, err := os.ReadFile(filepath.Join(c.Dir, "log", "slurmctld.log"))
	if err != nil {
		b.Fatal(err)
	}
	var out []map[string]string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, `msg="ping sweep"`) {
			continue
		}
		rec := map[string]string{}
		for _, m := range logKV.FindAllStringSubmatch(line, -1) {
			rec[m[1]] = strings.Trim(m[2], `"`)
		}
		pinged, _ := strconv.Atoi(rec["pinged"])
		reg, _ := strconv.Atoi(rec["registration_requests"])
		if pinged+reg == n { // pings, and registration requests for Slurm's rotating window
			out = append(out, rec)
		}
	}
	return out
}

// sockets counts the open sockets of process pid.
func sockets(pid int) int {
	ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name())); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

func benchPingSweep(b *testing.B, n int) {
	t0 := time.Now()
	c := cluster.Start(b, cluster.Options{Nodes: n, CPUsPerNode: 1, ExtraConf: "SlurmdTimeout=3\n"})
	startup := time.Since(t0)
	pidText, err := os.ReadFile(filepath.Join(c.Dir, "run", "slurmctld.pid"))
	if err != nil {
		b.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	base := sockets(pid)
	var peakSockets int
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			s := sockets(pid)
			mu.Lock()
			peakSockets = max(peakSockets, s)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()

	seen := len(sweepRecords(b, c, n))
	var total, pingTotal time.Duration
	peakG, failed, dials := 0, 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var rec map[string]string
		for deadline := time.Now().Add(bound); rec == nil; time.Sleep(poll) {
			if recs := sweepRecords(b, c, n); len(recs) > seen {
				rec, seen = recs[seen], seen+1
			} else if time.Now().After(deadline) {
				b.Fatalf("no sweep of %d nodes within %v", n, bound)
			}
		}
		ms, _ := strconv.Atoi(rec["ms"])
		total += time.Duration(ms) * time.Millisecond
		pms, _ := strconv.Atoi(rec["ping_ms"])
		pingTotal += time.Duration(pms) * time.Millisecond
		g, _ := strconv.Atoi(rec["peak_goroutines"])
		peakG = max(peakG, g)
		f, _ := strconv.Atoi(rec["failed"])
		failed += f
		d, _ := strconv.Atoi(rec["dials"])
		dials = max(dials, d)
	}
	b.StopTimer()
	close(done)
	wg.Wait()
	if failed > 0 {
		b.Errorf("%d pings failed", failed)
	}
	b.ReportMetric(startup.Seconds(), "cluster-start-s")
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/sweep")
	// The ping broadcast alone; the sweep also waits for the registration requests of
	// Slurm's rotating window (TreeWidth nodes, each registering over its own connection).
	b.ReportMetric(float64(pingTotal.Milliseconds())/float64(b.N), "ping-ms/sweep")
	b.ReportMetric(float64(peakG), "peak-goroutines")
	b.ReportMetric(float64(dials), "conns/sweep")
	mu.Lock()
	b.ReportMetric(float64(peakSockets-base), "peak-extra-sockets")
	mu.Unlock()
}
