package bench_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
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

// memJobs is the queue of issue 9's memory figure.
const memJobs = 100000

// BenchmarkCtldRSS20000Nodes100kJobs is issue 9's memory figure: the slurmctld process's
// resident memory (VmRSS) once it holds 20,000 emulated nodes and 100,000 pending (held)
// jobs submitted over RPC by concurrent clients, as sbatch submits them: a short script and
// the user's exported environment (benchEnv: 40 variables, 2.9 KiB, a typical login
// environment). It prints `ctld_rss_20k_nodes_100k_jobs: N MB` (the goal is ≤ 200 MB) and
// reports the peak (VmHWM) beside it. One iteration is the whole figure; run it with
// -benchtime 1x.
//
// With ORBIT_BENCH_INPROCESS=1 the controller runs in the test process (no RSS then) and
// ORBIT_BENCH_HEAPPROFILE=file writes a heap profile of the loaded process, to see what a
// job costs (go tool pprof -sample_index=inuse_space); ORBIT_BENCH_MEMJOBS=n submits n jobs
// instead of 100,000 for a quicker look (the printed figure is then not the issue's).
func BenchmarkCtldRSS20000Nodes100kJobs(b *testing.B) {
	inProc := os.Getenv("ORBIT_BENCH_INPROCESS") != ""
	c := cluster.Start(b, cluster.Options{Nodes: scaleNodes, CPUsPerNode: 1, InProcess: inProc})
	cl, err := cmdclient.Load("sbatch", c.ConfPath)
	if err != nil {
		b.Fatal(err)
	}
	desc := memDesc(c)
	jobs := memJobs
	if n, err := strconv.Atoi(os.Getenv("ORBIT_BENCH_MEMJOBS")); err == nil && n > 0 {
		jobs = n
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 {
			b.Fatal("one iteration is the whole figure: run with -benchtime 1x")
		}
		acked := ingestDesc(b, cl, 32, jobs, desc)
		if acked != jobs {
			b.Fatalf("%d of %d jobs acknowledged", acked, jobs)
		}
	}
	b.StopTimer()
	if inProc {
		countJobs(b, cl, jobs)
		// The live heap of the whole test process (controller, emulated slurmd, clients)
		// after a collection: what the figure is made of, before the runtime's overhead.
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live_heap_MB")
		if path := os.Getenv("ORBIT_BENCH_HEAPPROFILE"); path != "" {
			runtime.GC()
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.WriteHeapProfile(f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		return
	}
	// Let the controller settle (the scheduler's passes over the new queue, the garbage of
	// the submissions collected) before reading its resident memory.
	time.Sleep(5 * time.Second)
	rss, _ := procMemMB(b, c.ControllerPID())
	// Then the queue as squeue reads it (the controller keeps each job's packed info for
	// the next query): every acknowledged job must be listed.
	countJobs(b, cl, jobs)
	after, hwm := procMemMB(b, c.ControllerPID())
	name := "ctld_rss_20k_nodes_100k_jobs"
	if jobs != memJobs {
		name = fmt.Sprintf("ctld_rss_20k_nodes_%d_jobs", jobs)
	}
	fmt.Printf("%s: %d MB\n", name, rss)
	b.ReportMetric(float64(rss), "rss_MB")
	b.ReportMetric(float64(after), "rss_after_query_MB")
	b.ReportMetric(float64(hwm), "peak_rss_MB")
}

// countJobs checks that the controller lists want jobs, asking as squeue does (packed: a
// plain reply for 100,000 jobs is over the frame limit).
func countJobs(b *testing.B, cl *cmdclient.Client, want int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	rep := new(wire.JobInfoReply)
	if err := cl.Call(ctx, wire.MsgJobInfo, &wire.JobInfoRequest{Packed: true}, rep); err != nil {
		b.Fatalf("job info: %v", err)
	}
	if err := rep.Unpack(); err != nil {
		b.Fatalf("job info: %v", err)
	}
	if len(rep.Jobs) != want {
		b.Fatalf("controller lists %d jobs, want %d", len(rep.Jobs), want)
	}
}

// memDesc is a batch job as sbatch sends it: a short script and an exported environment.
func memDesc(c *cluster.Cluster) *wire.JobDesc {
	d := queryDesc(c, "sleep 60", true)
	d.Script = "#!/bin/bash\n#SBATCH --job-name=memtest\n#SBATCH --time=10\n\nsrun hostname\nsleep 60\n"
	d.Environment = benchEnv(c)
	return d
}

// benchEnv is a typical login environment of 40 variables (2.9 KiB), fixed so the figure
// does not depend on the environment the benchmark runs in.
func benchEnv(c *cluster.Cluster) []string {
	env := []string{
		"SHELL=/bin/bash", "HOME=/home/alice", "USER=alice", "LOGNAME=alice", "LANG=en_US.UTF-8",
		"TERM=xterm-256color", "HOSTNAME=login01", "PWD=" + c.WorkDir, "OLDPWD=/home/alice",
		"PATH=/opt/apps/openmpi/4.1.5/bin:/opt/apps/gcc/12.2.0/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/home/alice/.local/bin",
		"LD_LIBRARY_PATH=/opt/apps/openmpi/4.1.5/lib:/opt/apps/gcc/12.2.0/lib64",
		"MANPATH=/opt/apps/openmpi/4.1.5/share/man:/opt/apps/gcc/12.2.0/share/man:/usr/share/man",
		"MODULEPATH=/opt/modulefiles/Core:/opt/modulefiles/Compiler/gcc/12.2.0",
		"LOADEDMODULES=gcc/12.2.0:openmpi/4.1.5", "_LMFILES_=/opt/modulefiles/Core/gcc/12.2.0.lua:/opt/modulefiles/Compiler/gcc/12.2.0/openmpi/4.1.5.lua",
		"MAIL=/var/spool/mail/alice", "SHLVL=1", "HISTSIZE=1000", "EDITOR=vim",
		"SSH_CLIENT=10.0.0.17 53422 22", "SSH_CONNECTION=10.0.0.17 53422 10.0.0.2 22", "SSH_TTY=/dev/pts/3",
		"XDG_SESSION_ID=4711", "XDG_RUNTIME_DIR=/run/user/1000", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus",
		"LESSOPEN=||/usr/bin/lesspipe.sh %s", "OMP_NUM_THREADS=1", "CC=gcc", "CXX=g++", "FC=gfortran",
		"SCRATCH=/scratch/alice", "WORK=/work/alice", "PROJECT=/projects/climate",
		"SLURM_CONF=" + c.ConfPath, "SLURM_SUBMIT_DIR=" + c.WorkDir, "SLURM_SUBMIT_HOST=login01",
		"SLURM_GET_USER_ENV=0", "SLURM_EXPORT_ENV=ALL",
	}
	// LS_COLORS as most distributions set it: the longest variable of a login shell.
	var ls strings.Builder
	ls.WriteString("LS_COLORS=rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01")
	for i := 0; len(ls.String()) < 1200; i++ {
		ls.WriteString(":*.ext" + strconv.Itoa(i) + "=01;31")
	}
	return append(env, ls.String())
}

// procMemMB reads a process's current and peak resident memory, in MB.
func procMemMB(b *testing.B, pid int) (rss, hwm int) {
	b.Helper()
	if pid == 0 {
		b.Fatal("the controller is not a process of its own")
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatalf("controller status: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		kb, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// ingestDesc submits jobs copies of desc from clients goroutines, each on one persistent
// connection, and returns how many were acknowledged; a failure stops the benchmark.
func ingestDesc(b *testing.B, cl *cmdclient.Client, clients, jobs int, desc *wire.JobDesc) int {
	b.Helper()
	var acked atomic.Int64
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			defer cancel()
			// A long reply timeout: a submission that timed out may still have been taken,
			// and a retry would count it twice. The figure is memory, not latency.
			conn, err := wire.Dial(ctx, "tcp", cl.Addrs[0], wire.ClientOptions{MessageTimeout: 5 * time.Minute, Signer: cl.Signer()})
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			for i := w; i < jobs; i += clients {
				var rep wire.SubmitBatchJobReply
				if err := conn.Call(ctx, wire.MsgSubmitBatchJob, desc, &rep); err != nil {
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
