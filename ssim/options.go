package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// params is one ssim invocation.
type params struct {
	info      cmdclient.Info
	config    string
	swf       string
	sacct     string
	csv       string
	estimate  Estimate
	scheduler string
	limit     int
	engine    string
}

// opts is ssim's option table.
var opts = []cmdclient.Opt{
	{Long: "config", Short: 'f', Arg: cmdclient.RequiredArg},
	{Long: "csv", Arg: cmdclient.RequiredArg},
	{Long: "engine", Arg: cmdclient.RequiredArg},
	{Long: "estimate", Arg: cmdclient.RequiredArg},
	{Long: "help", Short: 'h'},
	{Long: "limit", Arg: cmdclient.RequiredArg},
	{Long: "sacct", Arg: cmdclient.RequiredArg},
	{Long: "scheduler", Arg: cmdclient.RequiredArg},
	{Long: "swf", Arg: cmdclient.RequiredArg},
	{Long: "usage"},
	{Long: "version", Short: 'V'},
}

const helpText = `Usage: ssim [OPTIONS] (--swf FILE | --sacct FILE)
Replay a workload trace through Orbit's controller and scheduler in virtual time.

  -f, --config=FILE          slurm.conf describing the cluster (default: SLURM_CONF,
                             then the default location); SchedulerType and
                             SchedulerParameters choose and tune the scheduler
      --swf=FILE             workload in the Standard Workload Format
      --sacct=FILE           workload as "sacct -P" output with a header line
                             (JobID, Submit, Start, End, Elapsed, Timelimit,
                             NNodes/NCPUS, State, User, Partition)
      --csv=FILE             write one record per job: id, submit, start, end,
                             wait, run, nodes, estimate, bounded_slowdown
      --estimate=user|runtime
                             time limit the scheduler sees: the user's request
                             (default) or the real runtime (perfect knowledge)
      --scheduler=TYPE       override SchedulerType: sched/builtin (FCFS) or
                             sched/backfill (EASY)
      --limit=N              simulate only the first N jobs (in submit order)
      --engine=ctld|harness  what stands for slurmctld: the real controller in
                             virtual time on emulated nodes (ctld, the default)
                             or the plugin SDK's minimal harness (faster)

Prints jobs, utilization (node-seconds used / offered from first submit to last
end), mean_wait_s, mean_bounded_slowdown (tau = 10 s) and makespan_s.

Help options:
  -h, --help                 show this help message
      --usage                display brief usage message

Other options:
  -V, --version              output version information and exit
`

const usageText = `Usage: ssim [-f slurm.conf] (--swf FILE | --sacct FILE) [--csv FILE]
            [--estimate user|runtime] [--scheduler sched/builtin|sched/backfill]
            [--limit N] [--engine ctld|harness]
`

// parseArgs reads the command line. code is -1 to go on, or the exit status (after
// help/usage/version, or an error already printed).
func parseArgs(argv []string, stderr io.Writer) (*params, int) {
	p := &params{}
	prog := "ssim"
	if len(argv) > 0 {
		prog, argv = argv[0], argv[1:]
	}
	fail := func(format string, a ...any) (*params, int) {
		fmt.Fprintf(stderr, "ssim: error: "+format+"\n", a...)
		return nil, 1
	}
	found, operands, ok := cmdclient.ParseOptions("ssim", prog, argv, opts, stderr)
	if !ok {
		return nil, 1
	}
	for _, f := range found {
		switch f.Opt.Long {
		case "config":
			p.config = f.Value
		case "csv":
			p.csv = f.Value
		case "estimate":
			switch f.Value {
			case "user":
				p.estimate = EstimateUser
			case "runtime":
				p.estimate = EstimateRuntime
			default:
				return fail("--estimate=%s: use user or runtime", f.Value)
			}
		case "engine":
			if f.Value != "ctld" && f.Value != "harness" {
				return fail("--engine=%s: use ctld or harness", f.Value)
			}
			p.engine = f.Value
		case "help":
			p.info = cmdclient.InfoHelp
		case "limit":
			n, err := strconv.Atoi(f.Value)
			if err != nil || n < 1 {
				return fail("--limit=%s: not a positive number of jobs", f.Value)
			}
			p.limit = n
		case "sacct":
			p.sacct = f.Value
		case "scheduler":
			if f.Value != "sched/builtin" && f.Value != "sched/backfill" {
				return fail("--scheduler=%s: use sched/builtin or sched/backfill", f.Value)
			}
			p.scheduler = f.Value
		case "swf":
			p.swf = f.Value
		case "usage":
			p.info = cmdclient.InfoUsage
		case "version":
			p.info = cmdclient.InfoVersion
		}
	}
	if p.info != cmdclient.InfoNone {
		return p, -1
	}
	if len(operands) > 0 {
		return fail("unexpected argument %q", operands[0])
	}
	if (p.swf == "") == (p.sacct == "") {
		return fail("give one workload: --swf FILE or --sacct FILE")
	}
	return p, -1
}
