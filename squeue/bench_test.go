package main

import (
	"bufio"
	"io"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// queueOf packs n jobs as the controller sends a queue of held jobs with a few running.
func queueOf(n int) []byte {
	b := wire.AppendJobInfoListHeader(nil, n)
	var packer wire.JobInfoPacker // as the controller answers squeue (PackedRefs)
	for i := 0; i < n; i++ {
		j := wire.JobInfo{JobID: uint32(i + 1), ArrayTaskID: wire.NoVal, Name: "wrap", UserName: "root", GroupName: "root",
			Partition: "debug", State: uint32(states.JobPending), Reason: uint32(states.WaitHeldUser), NumNodes: 1, NumCPUs: 1,
			NumTasks: 1, CPUsPerTask: 1, NTasksPerNode: wire.NoVal, MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64,
			TimeLimit: wire.Infinite, TimeMin: wire.NoVal, SubmitTime: 1_700_000_000 + int64(i/100),
			WorkDir: "/home/alice/work/run", StdOut: "/home/alice/work/run/slurm-%j.out", StdErr: "/home/alice/work/run/slurm-%j.out",
			StdIn: "/dev/null", SubmitLine: "sbatch --wrap true", AllocNode: "login1", OverSubscribe: "OK",
			TRES: "cpu=1,mem=1000M,node=1,billing=1", LastSchedEval: 1_700_000_000 + int64(i/100), MinCPUsNode: 1, BatchFlag: true}
		if i < 16 {
			j.State, j.Reason, j.Priority = uint32(states.JobRunning), 0, 1
			j.StartTime, j.NodeList, j.BatchHost = 1_700_000_100, "n1", "n1"
		}
		b = packer.Append(b, &j)
	}
	return b
}

// benchShow times what squeue does with a reply of 10,000 jobs: decode, select, sort, print.
func benchShow(b *testing.B, args ...string) {
	packed := queueOf(10000)
	p, code := parseArgs(append([]string{"squeue"}, args...), func(string) (string, bool) { return "", false }, io.Discard, io.Discard)
	if code >= 0 {
		b.Fatalf("parseArgs: %d", code)
	}
	out := bufio.NewWriterSize(io.Discard, 64<<10)
	now := time.Unix(1_700_001_000, 0)
	b.ReportAllocs()
	for b.Loop() {
		rep := &wire.JobInfoReply{Packed: packed}
		if !show(p, rep, now, out, io.Discard) {
			b.Fatal("show failed")
		}
	}
}

// BenchmarkShow10000 is the default squeue over 10,000 jobs.
func BenchmarkShow10000(b *testing.B) { benchShow(b) }

// BenchmarkShow10000Long is squeue -l over 10,000 jobs.
func BenchmarkShow10000Long(b *testing.B) { benchShow(b, "-l") }
