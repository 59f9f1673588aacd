package main

import (
	"os"
	"testing"

	"github.com/orbit-hpc/orbit/conf"
)

// kthTrace is the KTH-SP2 trace beside the repository (DESIGN.md: ../shared/workloads).
const kthTrace = "../../shared/workloads/KTH-SP2-1996-2.swf"

// benchJobs is how many of KTH-SP2's first jobs one iteration simulates.
const benchJobs = 1000

// BenchmarkSimulateKTH reports the simulator's speed, simulated jobs per wall second, for
// EASY backfill (sched/backfill, user estimates) on the first benchJobs jobs of KTH-SP2 on
// the 100-node cluster of testsuite/sched-eval, through the default engine: the real
// controller in virtual time (ctldEngine).
func BenchmarkSimulateKTH(b *testing.B) { benchKTH(b, ctldEngine{}) }

// BenchmarkSimulateKTHHarness is the same through the plugin SDK's harness (--engine
// harness): the difference is the controller's own cost.
func BenchmarkSimulateKTHHarness(b *testing.B) { benchKTH(b, harnessEngine{}) }

func benchKTH(b *testing.B, engine Engine) {
	f, err := os.Open(kthTrace)
	if err != nil {
		b.Skipf("KTH-SP2 trace not available: %v", err)
	}
	tr, _, err := ReadSWF(f, kthTrace)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := conf.Load("../testsuite/sched-eval/slurm.conf")
	if err != nil {
		b.Fatal(err)
	}
	cl, err := ClusterOf(cfg)
	if err != nil {
		b.Fatal(err)
	}
	jobs := tr.Jobs[:min(benchJobs, len(tr.Jobs))]
	b.ResetTimer()
	simulated := 0
	for b.Loop() {
		out, err := engine.Run(cl, cl.Place(jobs, EstimateUser, map[string]int{}))
		if err != nil {
			b.Fatal(err)
		}
		simulated += len(out.Records)
	}
	b.ReportMetric(float64(simulated)/b.Elapsed().Seconds(), "jobs/s")
}
