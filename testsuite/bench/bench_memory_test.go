package bench_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// memJobs is the queue of issue 9's memory figure.
const memJobs = 100000

// memPartitions are the partitions beside the cluster's default "debug" (all nodes): a
// site's few, over overlapping node ranges, one with a longer time limit.
const memPartitions = "PartitionName=batch Nodes=n[1-15000] MaxTime=2-00:00:00 State=UP\n" +
	"PartitionName=long Nodes=n[10001-20000] MaxTime=7-00:00:00 State=UP\n" +
	"PartitionName=short Nodes=n[1-5000] MaxTime=04:00:00 State=UP\n"

// BenchmarkCtldMemory20000Nodes100kJobs is issue 9's memory figure: the slurmctld process's
// resident memory (VmRSS) once it holds 20,000 emulated nodes and 100,000 pending (held)
// jobs submitted over RPC by concurrent clients as sbatch submits them, and again after the
// queries that read the whole queue. The jobs differ as a real queue's do (memQueue): eight
// users, four partitions, names, work directories, output paths, scripts, environments of
// about 3 KiB with the per-run variables differing, a mix of time limits and node counts,
// and one job in 40 an array. It prints `name: value unit` lines:
//
//	ctld_rss_submitted          VmRSS once the queue is in and the controller settled
//	ctld_rss_after_squeue       after squeue's request listed every job
//	ctld_rss_after_scontrol     after `scontrol show job`'s request showed every job
//	ctld_rss_peak               VmHWM: the most the process ever held
//	ctld_heap_live_*            the controller's live Go heap after its last collection at
//	                            each point (from its GODEBUG=gctrace=1 trace): what RSS is
//	                            made of before the garbage collector's slack
//
// The goal is ≤ 200 MB for every RSS line. One iteration is the whole figure; run it with
// -benchtime 1x.
//
// With ORBIT_BENCH_INPROCESS=1 the controller runs in the test process (no RSS then; the
// test process's live heap is reported) and ORBIT_BENCH_HEAPPROFILE=file writes a heap
// profile of the loaded process, to see what a job costs (go tool pprof
// -sample_index=inuse_space); ORBIT_BENCH_MEMJOBS=n submits n jobs instead of 100,000 for
// a quicker look (the names then say so: the figure is not the issue's).
func BenchmarkCtldMemory20000Nodes100kJobs(b *testing.B) {
	inProc := os.Getenv("ORBIT_BENCH_INPROCESS") != ""
	// The daemons inherit the environment at start: the controller's collector trace is
	// how its live heap is read from outside. The runtime of this process read GODEBUG
	// when it started and does not trace.
	for _, name := range []string{"slurmctld", "slurmd", "slurmd/slurmstepd", "sbatch", "squeue", "scancel"} {
		testbin.Path(b, name) // built before the trace is asked for: the compiler would trace too
	}
	old, had := os.LookupEnv("GODEBUG")
	os.Setenv("GODEBUG", strings.TrimPrefix(old+",gctrace=1", ","))
	c := cluster.Start(b, cluster.Options{Nodes: scaleNodes, CPUsPerNode: 1, InProcess: inProc, ExtraConf: memPartitions})
	if had {
		os.Setenv("GODEBUG", old)
	} else {
		os.Unsetenv("GODEBUG")
	}
	cl, err := cmdclient.Load("sbatch", c.ConfPath)
	if err != nil {
		b.Fatal(err)
	}
	key, err := auth.LoadKey(auth.KeyPath(c.ConfPath))
	if err != nil {
		b.Fatal(err)
	}
	q := newMemQueue(c)
	jobs := memJobs
	if n, err := strconv.Atoi(os.Getenv("ORBIT_BENCH_MEMJOBS")); err == nil && n > 0 {
		jobs = n
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 {
			b.Fatal("one iteration is the whole figure: run with -benchtime 1x")
		}
		acked := ingestQueue(b, cl, key, 32, jobs, q)
		if acked != jobs {
			b.Fatalf("%d of %d jobs acknowledged", acked, jobs)
		}
	}
	b.StopTimer()
	suffix := ""
	if jobs != memJobs {
		suffix = fmt.Sprintf("_%d_jobs", jobs)
	}
	if inProc {
		if path := os.Getenv("ORBIT_BENCH_CPUPROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			pprof.StartCPUProfile(f)
			defer f.Close()
			defer pprof.StopCPUProfile()
		}
		listJobs(b, c, jobs)
		// The live heap of the whole test process (controller, emulated slurmd, clients)
		// after a collection: what the figure is made of, before the runtime's overhead.
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("process_heap_live%s: %d MB\n", suffix, ms.HeapAlloc>>20)
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
	pid := c.ControllerPID()
	trace := c.Dir + "/log/slurmctld.stderr"
	report := func(point string, rss int) {
		fmt.Printf("ctld_rss_%s%s: %d MB\n", point, suffix, rss)
		b.ReportMetric(float64(rss), "rss_"+point+"_MB")
		if heap, ok := lastLiveHeapMB(trace); ok {
			fmt.Printf("ctld_heap_live_%s%s: %d MB\n", point, suffix, heap)
		}
	}
	// Let the controller settle (the scheduler's passes over the new queue, the garbage of
	// the submissions collected) before reading its resident memory.
	time.Sleep(5 * time.Second)
	rss, _ := procMemMB(b, pid)
	report("submitted", rss)
	// The queue as squeue lists it: every acknowledged job must be there.
	t0 := time.Now()
	listJobs(b, c, jobs)
	fmt.Printf("squeue_rpc_wall%s: %.1f s\n", suffix, time.Since(t0).Seconds())
	rss, _ = procMemMB(b, pid)
	report("after_squeue", rss)
	t0 = time.Now()
	showJobs(b, c, jobs)
	fmt.Printf("scontrol_show_job_rpc_wall%s: %.1f s\n", suffix, time.Since(t0).Seconds())
	rss, hwm := procMemMB(b, pid)
	report("after_scontrol", rss)
	fmt.Printf("ctld_rss_peak%s: %d MB\n", suffix, hwm)
	b.ReportMetric(float64(hwm), "peak_rss_MB")
}

// listJobs asks for the queue as squeue does (its request: packed, active jobs only) and
// checks that want jobs are listed: a pending array is one job until its tasks start. It
// makes squeue's RPC rather than running squeue because the command's own reply timeout
// (2 × MessageTimeout) is not what this figure measures.
func listJobs(b *testing.B, c *cluster.Cluster, want int) {
	b.Helper()
	countJobs(b, c, &wire.JobInfoRequest{Packed: true, PackedRefs: true, ActiveOnly: true}, want)
}

// showJobs asks for every job as `scontrol show job` does (packed, all jobs) and checks that
// want jobs are shown.
func showJobs(b *testing.B, c *cluster.Cluster, want int) {
	b.Helper()
	countJobs(b, c, &wire.JobInfoRequest{Packed: true, PackedRefs: true, ShowAll: true}, want)
}

func countJobs(b *testing.B, c *cluster.Cluster, req *wire.JobInfoRequest, want int) {
	b.Helper()
	cl, err := cmdclient.Load("squeue", c.ConfPath)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", cl.Addrs[0], wire.ClientOptions{MessageTimeout: bound, Signer: cl.Signer()})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	rep := new(wire.JobInfoReply)
	if err := conn.Call(ctx, wire.MsgJobInfo, req, rep); err != nil {
		b.Fatalf("job info: %v", err)
	}
	fmt.Printf("job_info_reply_%s: %.1f MB\n", map[bool]string{true: "all", false: "active"}[req.ShowAll], float64(len(rep.Packed))/(1<<20))
	if err := rep.Unpack(); err != nil {
		b.Fatalf("job info: %v", err)
	}
	if len(rep.Jobs) != want {
		b.Fatalf("controller lists %d jobs, want %d", len(rep.Jobs), want)
	}
}

// gcLine is a collection in a GODEBUG=gctrace=1 trace: "gc N @...: ... A->B->C MB, ...",
// where C is the heap that survived the collection.
var gcLine = regexp.MustCompile(`^gc \d+ @.* \d+->\d+->(\d+) MB`)

// lastLiveHeapMB is the live heap after the last collection traced in path.
func lastLiveHeapMB(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	mb, ok := 0, false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if m := gcLine.FindSubmatch(sc.Bytes()); m != nil {
			mb, _ = strconv.Atoi(string(m[1]))
			ok = true
		}
	}
	return mb, ok
}

// memUser is a submitting user: a real account of this machine, so the controller shows its
// name.
type memUser struct {
	name     string
	uid, gid uint32
	home     string
}

// memQueue makes the jobs of a queue that differ as a real one's do. job(i) is a pure
// function of i, so every run submits the same queue.
type memQueue struct {
	c        *cluster.Cluster
	users    []memUser
	projects []string
	lsColors string
}

func newMemQueue(c *cluster.Cluster) *memQueue {
	q := &memQueue{c: c, projects: []string{
		"cesm_b1850", "wrf_conus", "gromacs_lysozyme", "lammps_melt", "openfoam_pitzdaily",
		"pytorch_resnet50", "vasp_si_bulk", "nwchem_h2o", "namd_apoa1", "quantum_espresso_au",
		"blast_nr", "gatk_haplotype",
	}}
	// Accounts of this machine, so the controller resolves names as it would a site's users.
	for _, u := range []struct {
		name string
		uid  uint32
	}{{"root", 0}, {"daemon", 1}, {"bin", 2}, {"sys", 3}, {"www-data", 33}, {"backup", 34}, {"list", 38}, {"nobody", 65534}} {
		q.users = append(q.users, memUser{name: u.name, uid: u.uid, gid: u.uid, home: "/home/" + u.name})
	}
	var ls strings.Builder
	ls.WriteString("LS_COLORS=rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01")
	for i := 0; ls.Len() < 1200; i++ {
		ls.WriteString(":*.ext" + strconv.Itoa(i) + "=01;31")
	}
	q.lsColors = ls.String()
	return q
}

// userOf is the user submitting job i: users submit unevenly, as at a site (a few submit
// most of the queue).
func (q *memQueue) userOf(i int) memUser {
	return q.users[[]int{0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 1, 2, 0, 3, 1}[i%16]]
}

// job is the i-th job of the queue as sbatch sends it.
func (q *memQueue) job(i int) *wire.JobDesc {
	u := q.userOf(i)
	proj := q.projects[(i/7)%len(q.projects)]
	run := i / 23 // runs of a campaign: jobs submitted together share a directory
	dir := fmt.Sprintf("%s/%s/run%05d", u.home, proj, run)
	d := &wire.JobDesc{
		MinNodes: wire.NoVal, NumTasks: wire.NoVal, NTasksPerNode: wire.NoVal, CPUsPerTask: wire.NoVal,
		MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64, TimeLimit: wire.NoVal, TimeMin: wire.NoVal,
		Priority: wire.NoVal, Requeue: -1, Hold: true, MaxNodes: wire.NoVal,
		MinNodesInvasive: wire.NoVal, MaxNodesInvasive: wire.NoVal, MinPower: wire.NoVal, MaxPower: wire.NoVal,
		WorkDir: dir, SubmitDir: dir, SubmitHost: fmt.Sprintf("login%02d", 1+i%4),
		Account: proj, Command: dir + "/job.sh",
	}
	args := []string{"sbatch"}
	// Names: most jobs are named after their workflow, one in three after its own run.
	if i%3 == 0 {
		d.Name = fmt.Sprintf("%s_r%05d_s%d", proj, run, i%23)
	} else {
		d.Name = proj
	}
	args = append(args, "-J", d.Name)
	switch p := []string{"", "batch", "batch", "long", "short", ""}[i%6]; p {
	case "":
	default:
		d.Partition = p
		args = append(args, "-p", p)
	}
	switch t := []uint32{wire.NoVal, 30, 60, 240, 720, 1440, 15, 120}[(i/3)%8]; t {
	case wire.NoVal:
	default:
		if d.Partition == "short" {
			t = min(t, 240)
		}
		d.TimeLimit = t
		args = append(args, "-t", strconv.Itoa(int(t)))
	}
	switch n := []uint32{1, 1, 1, 2, 4, 1, 8, 1}[(i/5)%8]; {
	case n > 1:
		d.MinNodes, d.MaxNodes, d.NumTasks = n, n, n
		args = append(args, "-N", strconv.Itoa(int(n)), "-n", strconv.Itoa(int(n)))
	}
	if i%4 == 1 {
		d.MemPerCPU = 500
		args = append(args, "--mem-per-cpu=500")
	}
	switch i % 5 {
	case 1, 2:
		d.StdOut = dir + "/logs/%x-%j.out"
		args = append(args, "-o", "logs/%x-%j.out")
	case 3:
		d.StdOut = fmt.Sprintf("/scratch/%s/%s/%%A_%%a.out", u.name, proj)
		d.StdErr = fmt.Sprintf("/scratch/%s/%s/%%A_%%a.err", u.name, proj)
		args = append(args, "-o", d.StdOut, "-e", d.StdErr)
	}
	if i%40 == 7 {
		n := 10 + (i/40)%990
		d.ArraySpec = fmt.Sprintf("1-%d%%%d", n, 1+n/10)
		args = append(args, "--array="+d.ArraySpec)
	}
	if i%11 == 0 {
		d.Comment = fmt.Sprintf("campaign %s batch %d", proj, run/10)
		args = append(args, "--comment="+strconv.Quote(d.Comment))
	}
	d.SubmitLine = strings.Join(append(args, "job.sh"), " ")
	d.Script = fmt.Sprintf("#!/bin/bash\n#SBATCH --job-name=%s\n\nmodule load gcc/12.2.0 openmpi/4.1.5\ncd %s\n"+
		"srun ./%s --input case%05d.nml --seed %d --steps %d\n", d.Name, dir, proj, run, i*7919%100003, 1000*(1+i%9))
	d.Environment = q.env(i, u, dir)
	return d
}

// env is job i's exported environment: a login environment (about 3 KiB) whose per-session
// and per-run variables differ from job to job.
func (q *memQueue) env(i int, u memUser, dir string) []string {
	return []string{
		"SHELL=/bin/bash", "HOME=" + u.home, "USER=" + u.name, "LOGNAME=" + u.name, "LANG=en_US.UTF-8",
		"TERM=xterm-256color", fmt.Sprintf("HOSTNAME=login%02d", 1+i%4), "PWD=" + dir, "OLDPWD=" + u.home,
		"PATH=/opt/apps/openmpi/4.1.5/bin:/opt/apps/gcc/12.2.0/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:" + u.home + "/.local/bin",
		"LD_LIBRARY_PATH=/opt/apps/openmpi/4.1.5/lib:/opt/apps/gcc/12.2.0/lib64",
		"MANPATH=/opt/apps/openmpi/4.1.5/share/man:/opt/apps/gcc/12.2.0/share/man:/usr/share/man",
		"MODULEPATH=/opt/modulefiles/Core:/opt/modulefiles/Compiler/gcc/12.2.0",
		"LOADEDMODULES=gcc/12.2.0:openmpi/4.1.5", "_LMFILES_=/opt/modulefiles/Core/gcc/12.2.0.lua:/opt/modulefiles/Compiler/gcc/12.2.0/openmpi/4.1.5.lua",
		"MAIL=/var/spool/mail/" + u.name, "SHLVL=1", "HISTSIZE=1000", "EDITOR=vim",
		fmt.Sprintf("SSH_CLIENT=10.0.%d.%d %d 22", i%7, 10+i%200, 40000+i/97%20000),
		fmt.Sprintf("SSH_CONNECTION=10.0.%d.%d %d 10.0.0.2 22", i%7, 10+i%200, 40000+i/97%20000),
		fmt.Sprintf("SSH_TTY=/dev/pts/%d", i/97%40), fmt.Sprintf("XDG_SESSION_ID=%d", 4000+i/97),
		fmt.Sprintf("XDG_RUNTIME_DIR=/run/user/%d", u.uid), fmt.Sprintf("DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/%d/bus", u.uid),
		"LESSOPEN=||/usr/bin/lesspipe.sh %s", "OMP_NUM_THREADS=1", "CC=gcc", "CXX=g++", "FC=gfortran",
		"SCRATCH=/scratch/" + u.name, "WORK=/work/" + u.name, "PROJECT=/projects/" + q.projects[(i/7)%len(q.projects)],
		fmt.Sprintf("RUN_ID=%d", i), fmt.Sprintf("CASE_SEED=%d", i*7919%100003),
		"SLURM_CONF=" + q.c.ConfPath, "SLURM_SUBMIT_DIR=" + dir, fmt.Sprintf("SLURM_SUBMIT_HOST=login%02d", 1+i%4),
		"SLURM_GET_USER_ENV=0", "SLURM_EXPORT_ENV=ALL",
		q.lsColors,
	}
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

// ingestQueue submits q's first jobs jobs from clients goroutines, each on one persistent
// connection signed as one user (client w submits jobs w, w+clients, ..., all of the same
// user: userOf depends on i%16 only), and returns how many were acknowledged; a failure
// stops the benchmark.
func ingestQueue(b *testing.B, cl *cmdclient.Client, key *auth.Key, clients, jobs int, q *memQueue) int {
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
			u := q.userOf(w)
			// A long reply timeout: a submission that timed out may still have been taken,
			// and a retry would count it twice. The figure is memory, not latency.
			conn, err := wire.Dial(ctx, "tcp", cl.Addrs[0], wire.ClientOptions{MessageTimeout: 5 * time.Minute, Signer: auth.NewKeySigner(key, u.uid, u.gid)})
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			for i := w; i < jobs; i += clients {
				var rep wire.SubmitBatchJobReply
				if err := conn.Call(ctx, wire.MsgSubmitBatchJob, q.job(i), &rep); err != nil {
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
