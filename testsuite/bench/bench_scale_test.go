package bench_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// The 20,000-node figures of issue 9, on one slurmd process emulating every node:
//   - BenchmarkPingSweep20000: a ping sweep of 20,000 nodes (goal < 2 s);
//   - BenchmarkPingSweep20000Dead30: the same with 30 % of the nodes not answering (the
//     emulation's dead-node list, cluster.SetDeadNodes); the figure is the sweep time over
//     MessageTimeout (goal ≤ 1.2: forwarders time their silent children out in parallel);
//   - BenchmarkRegistration20000: slurmctld killed with 20,000 nodes registered in its state
//     and started again, until every node has registered again (goal < 10 s);
//   - BenchmarkSrunWide: `srun -N$N true` on nodes of 1 CPU, the whole command (goal ≤ 3 ×
//     N × 1.9 ms / 2 cores: 1.5 s at 512 nodes, 6 s at 2048);
//   - BenchmarkCtldRSS20000Nodes100kJobs: the controller's resident memory holding 20,000
//     nodes and 100,000 pending jobs (goal ≤ 200 MB), printed as
//     `ctld_rss_20k_nodes_100k_jobs: N MB` (bench_memory_test.go).
// Each also reports how long the harness took to bring the cluster up.

const scaleNodes = 20000

// startScale starts an emulated cluster of n nodes; report reports its start-up time (call
// it after the timed loop: ResetTimer drops metrics reported before it).
func startScale(b *testing.B, n int, extra string) (c *cluster.Cluster, report func()) {
	b.Helper()
	t0 := time.Now()
	c = cluster.Start(b, cluster.Options{Nodes: n, CPUsPerNode: 1, ExtraConf: extra})
	d := time.Since(t0)
	return c, func() { b.ReportMetric(d.Seconds(), "cluster-start-s") }
}

func BenchmarkPingSweep20000(b *testing.B) { benchPingSweep(b, scaleNodes) }

// BenchmarkPingSweep20000Dead30 measures the periodic sweeps while 30 % of the nodes (every
// node whose number is ≡ 0, 3 or 6 mod 10) drop every message. MessageTimeout=2 keeps a sweep
// short; SlurmdTimeout=60 keeps the silent nodes NOT_RESPONDING (pinged) rather than DOWN
// (not pinged) for the two sweeps (every 20 s) an iteration of -benchtime 2x measures.
func BenchmarkPingSweep20000Dead30(b *testing.B) {
	const msgTimeout = 2
	c, reportStart := startScale(b, scaleNodes, fmt.Sprintf("MessageTimeout=%d\nSlurmdTimeout=60\n", msgTimeout))
	var dead []string
	for i := 1; i <= scaleNodes; i++ {
		if r := i % 10; r == 0 || r == 3 || r == 6 {
			dead = append(dead, "n"+strconv.Itoa(i))
		}
	}
	c.SetDeadNodes(b, strings.Join(dead, ","))
	want := len(dead)
	// Sweeps that pinged every node and in which exactly the dead nodes failed.
	var seen int
	match := func() []map[string]string {
		var out []map[string]string
		for _, rec := range sweepRecords(b, c, scaleNodes) {
			if f, _ := strconv.Atoi(rec["failed"]); f == want {
				out = append(out, rec)
			}
		}
		return out
	}
	seen = len(match())
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var rec map[string]string
		for deadline := time.Now().Add(bound); rec == nil; time.Sleep(poll) {
			if recs := match(); len(recs) > seen {
				rec, seen = recs[seen], seen+1
			} else if time.Now().After(deadline) {
				last := "none"
				if all := sweepRecords(b, c, scaleNodes); len(all) > 0 {
					last = fmt.Sprint(all[len(all)-1])
				}
				b.Fatalf("no sweep of %d nodes with %d failed within %v; the last sweep of all nodes: %s", scaleNodes, want, bound, last)
			}
		}
		ms, _ := strconv.Atoi(rec["ms"])
		total += time.Duration(ms) * time.Millisecond
	}
	b.StopTimer()
	per := total / time.Duration(b.N)
	reportStart()
	b.ReportMetric(float64(per.Milliseconds()), "ms/sweep")
	b.ReportMetric(per.Seconds()/msgTimeout, "sweep/MessageTimeout")
}

// BenchmarkRegistration20000 kills slurmctld (SIGKILL) with 20,000 registered nodes and
// starts it again; each iteration lasts until the new controller has had every node
// register again (its first sweep asks every node to, and slurmd answers once its
// registration is taken) and lists them all IDLE and responding.
func BenchmarkRegistration20000(b *testing.B) {
	c, reportStart := startScale(b, scaleNodes, "SlurmdTimeout=300\n")
	var regTotal time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := len(sweepRecords(b, c, scaleNodes))
		c.KillController(b)
		c.RestartController(b)
		for deadline := time.Now().Add(bound); ; time.Sleep(poll) {
			recs := sweepRecords(b, c, scaleNodes)
			if len(recs) > before && recs[len(recs)-1]["failed"] == "0" && allIdle(b, c) {
				reg, _ := strconv.Atoi(recs[len(recs)-1]["ms"])
				regTotal += time.Duration(reg) * time.Millisecond
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("nodes not all registered again within %v", bound)
			}
		}
	}
	b.StopTimer()
	reportStart()
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/restart")
	// The registration storm alone: the first sweep, which waits for every node's
	// registration (the rest of s/restart is start-up and Slurm's MIN_CHECKIN_TIME of 3 s
	// before that sweep).
	b.ReportMetric(regTotal.Seconds()/float64(b.N), "s/registration-storm")
}

// allIdle reports whether every node is IDLE with no flag (no NOT_RESPONDING).
func allIdle(b *testing.B, c *cluster.Cluster) bool {
	nodes := c.Nodes(b)
	if len(nodes) != c.Opts.Nodes {
		return false
	}
	for _, n := range nodes {
		s := states.NodeState(n.State)
		if s&states.NodeStateBase != states.NodeIdle || s&^states.NodeStateBase != 0 {
			return false
		}
	}
	return true
}

// BenchmarkSrunWide runs `srun -N$N true` (a new allocation each time, one task per node of
// 1 CPU) as a user would, the whole process from start to exit. Besides the wall time it
// reports the CPU time of srun, of slurmd, and of the slurmstepd with its tasks: on a loaded
// machine the CPU figures say where a launch's work goes when the wall time cannot.
func BenchmarkSrunWide(b *testing.B) {
	const widest = 2048
	c, _ := startScale(b, widest, "")
	srun := testbin.Path(b, "srun")
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SBATCH_") || strings.HasPrefix(kv, "SQUEUE_")
	})
	env = append(env, "SLURM_CONF="+c.ConfPath)
	for _, n := range []int{512, widest} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var srunCPU time.Duration // srun's own CPU time: its share of the launch
			var slurmdCPU, stepdCPU time.Duration
			for i := 0; i < b.N; i++ {
				d0, s0 := slurmdsCPU(b, c)
				cmd := exec.Command(srun, "-N"+strconv.Itoa(n), "true")
				cmd.Env, cmd.Dir = env, c.WorkDir
				var o, e bytes.Buffer
				cmd.Stdout, cmd.Stderr = &o, &e
				done := make(chan error, 1)
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				go func() { done <- cmd.Wait() }()
				select {
				case err := <-done:
					if err != nil {
						b.Fatalf("srun -N%d true: %v\n%s%s", n, err, o.String(), clip(e.String()))
					}
				case <-time.After(bound):
					cmd.Process.Kill()
					<-done
					b.Fatalf("srun -N%d true still running after %v", n, bound)
				}
				b.StopTimer()
				srunCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				// The next srun needs every node IDLE again (the job's end is COMPLETING
				// until all its nodes said so).
				for deadline := time.Now().Add(bound); !allIdle(b, c); time.Sleep(poll) {
					if time.Now().After(deadline) {
						b.Fatalf("nodes not IDLE again after srun -N%d within %v", n, bound)
					}
				}
				d1, s1 := slurmdsCPU(b, c)
				slurmdCPU += d1 - d0
				stepdCPU += s1 - s0
				b.StartTimer()
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/srun")
			b.ReportMetric(srunCPU.Seconds()/float64(b.N), "srun-cpu-s/srun")
			b.ReportMetric(slurmdCPU.Seconds()/float64(b.N), "slurmd-cpu-s/srun")
			// The slurmstepd and the tasks it reaped, counted once slurmd reaped the stepd
			// (the nodes are IDLE only after the step's share ended everywhere).
			b.ReportMetric(stepdCPU.Seconds()/float64(b.N), "stepd+tasks-cpu-s/srun")
		})
	}
}

// slurmdsCPU is the CPU time of the cluster's slurmd processes, and of their reaped children
// (each step's slurmstepd, with the tasks it reaped), from /proc/PID/stat.
func slurmdsCPU(b *testing.B, c *cluster.Cluster) (self, children time.Duration) {
	files, _ := filepath.Glob(filepath.Join(c.Dir, "run", "slurmd*.pid"))
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(text)) + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command's closing parenthesis: state is field 3, utime 14.
		rest := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(rest) < 15 {
			continue
		}
		tick := func(i int) time.Duration {
			v, _ := strconv.ParseInt(rest[i-3], 10, 64)
			return time.Duration(v) * time.Second / clockTicks
		}
		self += tick(14) + tick(15)
		children += tick(16) + tick(17)
	}
	return self, children
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times (100 on Linux).
const clockTicks = 100

// clip is the start and the end of a long text.
func clip(s string) string {
	if len(s) > 8000 {
		return s[:4000] + "\n...\n" + s[len(s)-4000:]
	}
	return s
}

// tail is the end of a long text.
func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
