package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run is ssim with its arguments and output streams; it returns the exit status.
func run(argv []string, stdout, stderr io.Writer) int {
	p, code := parseArgs(argv, stderr)
	if code >= 0 {
		return code
	}
	if p.info != cmdclient.InfoNone {
		cmdclient.PrintInfo(stdout, p.info, helpText, usageText)
		return 0
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "ssim: error: %v\n", err)
		return 1
	}
	cfg, err := conf.Load(conf.Locate(p.config))
	if err != nil {
		return fail(err)
	}
	if p.scheduler != "" {
		cfg.SchedulerType = p.scheduler
	}
	cl, err := ClusterOf(cfg)
	if err != nil {
		return fail(err)
	}
	if _, err := NewScheduler(cl.Config); err != nil {
		return fail(fmt.Errorf("%s: %v", cfg.Path, err))
	}
	tr, err := readTrace(p)
	if err != nil {
		return fail(err)
	}
	if tr.MaxNodes != "" && tr.MaxNodes != fmt.Sprint(len(cl.Nodes)) {
		fmt.Fprintf(stderr, "ssim: note: the trace's machine had MaxNodes %s, %s has %d nodes\n", tr.MaxNodes, cfg.Path, len(cl.Nodes))
	}
	jobs := tr.Jobs
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit })
	if p.limit > 0 && len(jobs) > p.limit {
		jobs = jobs[:p.limit]
	}
	skipped := tr.Skipped
	if skipped == nil {
		skipped = map[string]int{}
	}
	placed := cl.Place(jobs, p.estimate, skipped)
	for _, why := range slices.Sorted(maps.Keys(skipped)) {
		fmt.Fprintf(stderr, "ssim: skipped %d jobs: %s\n", skipped[why], why)
	}
	over := 0
	for _, j := range placed {
		if j.Limit != scheduler.Infinite && j.Runtime > int64(j.Limit)*60 {
			over++
		}
	}
	if over > 0 {
		fmt.Fprintf(stderr, "ssim: %d jobs ran longer than their time limit in the trace; they end at their limit, as slurmctld kills them\n", over)
	}
	began := time.Now()
	var engine Engine = ctldEngine{}
	if p.engine == "harness" {
		engine = harnessEngine{}
	}
	out, err := engine.Run(cl, placed)
	if err != nil {
		return fail(err)
	}
	wall := time.Since(began)
	if out.Unstarted > 0 {
		fmt.Fprintf(stderr, "ssim: %d jobs never started (nothing was left to free resources for them)\n", out.Unstarted)
	}
	if out.Refused > 0 {
		fmt.Fprintf(stderr, "ssim: the controller refused %d jobs at submit (first: %s)\n", out.Refused, out.RefusedWhy)
	}
	if out.Rejected > 0 {
		fmt.Fprintf(stderr, "ssim: the controller's verification refused %d planned starts\n", out.Rejected)
	}
	usable := 0
	for _, n := range cl.Nodes {
		if n.Usable {
			usable++
		}
	}
	fmt.Fprintf(stdout, "scheduler: %s\n", schedName(cl.Config.SchedulerType))
	fmt.Fprintf(stdout, "estimate: %s\n", map[Estimate]string{EstimateUser: "user", EstimateRuntime: "runtime"}[p.estimate])
	Compute(out.Records, usable).Print(stdout)
	fmt.Fprintf(stdout, "wall_s: %.2f\n", wall.Seconds())
	fmt.Fprintf(stdout, "cpu_s: %.2f\n", cpuSeconds())
	if p.csv != "" {
		f, err := os.Create(p.csv)
		if err != nil {
			return fail(err)
		}
		err = WriteCSV(f, out.Records)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(fmt.Errorf("%s: %v", p.csv, err))
		}
	}
	return 0
}

// readTrace reads the workload file the options name.
func readTrace(p *params) (*Trace, error) {
	name := p.swf
	if name == "" {
		name = p.sacct
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if p.swf != "" {
		tr, hdr, err := ReadSWF(f, name)
		if err == nil {
			tr.MaxNodes = hdr["MaxNodes"]
		}
		return tr, err
	}
	return ReadSacct(f, name, time.Local)
}

func schedName(t string) string {
	if strings.TrimSpace(t) == "" {
		return "sched/backfill"
	}
	return t
}

// cpuSeconds is the user and system CPU time ssim has used: on a shared machine a fairer
// measure of the simulator's speed than the wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
