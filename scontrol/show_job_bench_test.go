package main

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// BenchmarkSprintJob10000 renders `scontrol show job` for 10,000 held jobs.
func BenchmarkSprintJob10000(b *testing.B) {
	jobs := make([]wire.JobInfo, 10000)
	for i := range jobs {
		jobs[i] = wire.JobInfo{JobID: uint32(i + 1), ArrayTaskID: wire.NoVal, Name: "wrap", UserName: "root", GroupName: "root",
			Partition: "debug", Reason: 2, NumNodes: 1, NumCPUs: 1, NumTasks: 1, CPUsPerTask: 1,
			NTasksPerNode: wire.NoVal, MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64, TimeLimit: wire.Infinite, TimeMin: wire.NoVal,
			SubmitTime: 1_700_000_000 + int64(i/100), WorkDir: "/home/alice/work/run", StdOut: "/home/alice/work/run/slurm-%j.out",
			StdErr: "/home/alice/work/run/slurm-%j.out", StdIn: "/dev/null", SubmitLine: "sbatch --wrap true",
			AllocNode: "login1", OverSubscribe: "OK", TRES: "cpu=1,mem=1000M,node=1,billing=1", LastSchedEval: 1_700_000_000 + int64(i/100),
			MinCPUsNode: 1, BatchFlag: true}
	}
	c := quietCLI()
	now := time.Unix(1_700_001_000, 0)
	for b.Loop() {
		n := 0
		for i := range jobs {
			n += len(c.sprintJob(&jobs[i], now))
		}
		if n == 0 {
			b.Fatal("nothing printed")
		}
	}
}
