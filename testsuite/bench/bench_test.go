package bench_test

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// nodes is the size of the emulated cluster, as in issue 4's end-to-end figure.
const nodes = 16

// poll is how often the queue is looked at while waiting (measure.sh polls turnaround every
// 50 ms).
const poll = 50 * time.Millisecond

// bound stops a benchmark that would otherwise wait forever on a broken cluster.
const bound = 15 * time.Minute

func start(b *testing.B) (*cluster.Cluster, func(args ...string) string) {
	b.Helper()
	c := cluster.Start(b, cluster.Options{Nodes: nodes, CPUsPerNode: 4, MinJobAge: 2})
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SBATCH_") || strings.HasPrefix(kv, "SQUEUE_")
	})
	env = append(env, "SLURM_CONF="+c.ConfPath)
	bins := map[string]string{}
	for _, n := range []string{"sbatch", "squeue"} {
		bins[n] = testbin.Path(b, n)
	}
	// run runs a command as measure.sh does, ignoring failures (they are counted by the
	// caller where the script counts them), and returns its stdout.
	run := func(args ...string) string {
		bin, ok := bins[args[0]]
		if !ok {
			bin = testbin.Path(b, args[0])
		}
		cmd := exec.Command(bin, args[1:]...)
		cmd.Env, cmd.Dir = env, c.WorkDir
		var o bytes.Buffer
		cmd.Stdout = &o
		cmd.Run()
		return o.String()
	}
	return c, run
}

// waitEmpty waits until the default squeue lists no job (measure.sh's wait_empty).
func waitEmpty(b *testing.B, c *cluster.Cluster, run func(...string) string) {
	b.Helper()
	for deadline := time.Now().Add(bound); run("squeue", "-h", "-o", "%i") != ""; time.Sleep(poll) {
		if time.Now().After(deadline) {
			b.Fatalf("queue not empty after %v", bound)
		}
	}
}

// BenchmarkSbatchSequential is measure.sh's submit_jobs_per_s: `sbatch --wrap true` run one
// after the other, jobs accepted per second (the jobs run meanwhile, as in the script).
func BenchmarkSbatchSequential(b *testing.B) {
	c, run := start(b)
	fails := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !strings.HasPrefix(run("sbatch", "--wrap", "true"), "Submitted batch job ") {
			fails++
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	if fails > 0 {
		b.Errorf("%d of %d submissions failed", fails, b.N)
	}
	waitEmpty(b, c, run)
}

// BenchmarkEndToEnd500 is measure.sh's e2e_jobs_per_s with NJOBS=500: from the first of 500
// sequential `sbatch --wrap true` until the default squeue is empty again.
func BenchmarkEndToEnd500(b *testing.B) {
	const njobs = 500
	c, run := start(b)
	var submitS, e2eS float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		for j := 0; j < njobs; j++ {
			run("sbatch", "--wrap", "true")
		}
		t1 := time.Now()
		waitEmpty(b, c, run)
		submitS += t1.Sub(t0).Seconds()
		e2eS += time.Since(t0).Seconds()
	}
	b.StopTimer()
	b.ReportMetric(float64(njobs*b.N)/e2eS, "jobs/s")
	b.ReportMetric(float64(njobs*b.N)/submitS, "submitted_jobs/s")
	for _, j := range c.Jobs(b) {
		if st := states.JobState(j.State).Base(); st != states.JobComplete {
			b.Errorf("job %d ended %s, want COMPLETED", j.JobID, states.JobState(j.State))
		}
	}
}

// BenchmarkSingleJobTurnaround is measure.sh's single_job_turnaround_s: one
// `sbatch --parsable --wrap true` on the idle cluster until `squeue -h -j ID` prints nothing,
// polled every 50 ms (poll50ms). With that poll the figure cannot go below sbatch, one squeue
// that still sees the job, 50 ms and one more squeue, whatever the cluster does; back2back
// runs the squeues one after another, so the figure is the job's own turnaround (issue 9's
// bound for it is sbatch, a job start and one squeue).
func BenchmarkSingleJobTurnaround(b *testing.B) {
	for _, v := range []struct {
		name string
		poll time.Duration
	}{{"poll50ms", poll}, {"back2back", 0}} {
		b.Run(v.name, func(b *testing.B) {
			c, run := start(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				id := strings.TrimSpace(run("sbatch", "--parsable", "--wrap", "true"))
				if id == "" {
					b.Fatal("sbatch --parsable printed no job id")
				}
				for deadline := t0.Add(bound); run("squeue", "-h", "-j", id) != ""; time.Sleep(v.poll) {
					if time.Now().After(deadline) {
						b.Fatalf("job %s still queued after %v", id, bound)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/job")
			waitEmpty(b, c, run)
		})
	}
}

// BenchmarkSrunN1True is measure.sh's srun_N1_true_s: the wall time of `srun -N1 true`.
func BenchmarkSrunN1True(b *testing.B) {
	c, _ := start(b)
	srun := testbin.Path(b, "srun")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(srun, "-N1", "true")
		cmd.Env, cmd.Dir = append(os.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("srun -N1 true: %v\n%s", err, out)
		}
	}
	b.StopTimer()
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/call")
}
