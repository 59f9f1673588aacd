// Command squeue is Orbit's `squeue`: it asks slurmctld for the job table (MsgJobInfo, with
// the live steps for -s) and prints it with Slurm 22.05's formats, filters, sort order, error
// texts and exit codes. The format engine is compat/format; this package parses the command
// line (options.go), selects and orders jobs and steps (filter.go, sort.go, steps.go) and
// fills format.JobRow from wire.JobInfo (row.go).
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	// squeue's garbage is the reply and the rows it prints, all alive until the end: collecting
	// it early and often only costs time with a large queue.
	debug.SetGCPercent(400)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(os.Args, os.LookupEnv, out, os.Stderr, time.Sleep)
	out.Flush()
	os.Exit(code)
}

// run is one squeue invocation; it returns the exit status. sleep waits between -i rounds.
func run(argv []string, getenv func(string) (string, bool), stdout *bufio.Writer, stderr io.Writer, sleep func(time.Duration)) int {
	p, code := parseArgs(argv, getenv, stdout, stderr)
	if code >= 0 {
		if p != nil {
			cmdclient.PrintInfo(stdout, p.info, helpText, usageText)
		}
		return code
	}
	c, err := cmdclient.Load("squeue", "")
	if err != nil {
		stdout.Flush()
		cmdclient.Fatal(stderr, "squeue", err)
	}
	if !mapNodes(c, p, stderr) || !loadPartTiers(c, p, stderr) { // nodes.go, priority.go
		stdout.Flush()
		return 1
	}
	if p.verbose > 0 {
		printOptions(stdout, p) // verbose.go
	}
	rc := 0
	for first := true; ; first = false {
		if !p.noHeader && (p.iterate > 0 || p.long || p.verbose > 0) {
			stdout.WriteString(time.Now().Format("Mon Jan 02 15:04:05 2006") + "\n")
		}
		if !report(c, p, first, stdout, stderr) {
			rc = 1
		}
		if p.iterate == 0 {
			return rc
		}
		stdout.WriteString("\n")
		stdout.Flush()
		sleep(time.Duration(p.iterate) * time.Second)
	}
}

// report asks for the jobs (or steps) once and prints them; false after an error. first is
// squeue's first listing, when -v logs the plugins it loads.
func report(c *cmdclient.Client, p *params, first bool, stdout *bufio.Writer, stderr io.Writer) bool {
	logPlugins := func(loaded bool) {
		if first && p.verbose > 0 {
			stdout.Flush()
			io.WriteString(stderr, pluginLines(c, p, loaded)) // verbose.go
		}
	}
	logPlugins(false)
	req := p.request()
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	var rep wire.JobInfoReply
	if err := c.Call(ctx, wire.MsgJobInfo, req, &rep); err != nil {
		stdout.Flush()
		what := "slurm_load_jobs error"
		if p.steps {
			what = "slurm_get_job_steps error"
		}
		fmt.Fprintf(stderr, "%s: %s\n", what, cmdclient.AsError(err).Text)
		return false
	}
	if first && p.verbose > 0 && !p.steps && len(p.jobs) == 1 {
		// An unknown job id: no record came, so no plugin was needed (show reports it).
		n := 0
		rep.EachJobSized(func(c int) { n = c }, func(*wire.JobInfo) bool { return false })
		first = n > 0
	}
	logPlugins(true)
	return show(p, &rep, time.Now(), stdout, stderr)
}

// show prints a job-info reply as report asked for it; false after an error. The jobs are
// decoded one at a time, each into one row that is rendered at once and then reused: what
// waits for the sort is the line and the sort keys' values (jobQueue), never a list of
// every job's record or row.
func show(p *params, rep *wire.JobInfoReply, now time.Time, stdout *bufio.Writer, stderr io.Writer) bool {
	if p.steps {
		if p.verbose > 0 {
			fmt.Fprintf(stdout, "last_update_time=%d records=%d\n", rep.LastUpdate, len(rep.Steps))
		}
		return reportSteps(p, rep.Steps, now, stdout, stderr)
	}
	q, sortErr := newJobQueue(p.sort)
	var r format.JobRow
	lines := func(b []byte) []byte {
		if !p.array || r.ArrayTaskStr == "" {
			return p.format.AppendRow(b, &r)
		}
		// squeue -r: a pending array record sorts as one job and prints one line per task,
		// in task order.
		tasks := expandTasks(r.ArrayTaskStr)
		r.ArrayTaskStr = ""
		for _, t := range tasks {
			r.ArrayTaskID = t
			b = p.format.AppendRow(b, &r)
		}
		return b
	}
	add := func(j *wire.JobInfo) {
		if sortErr != nil || !p.selects(j) {
			return
		}
		fillJobRow(&r, j, now)
		r.NoConvert = p.noConvert
		r.ArrayTaskStrUncut = p.array
		if p.priority {
			p.eachPartitionRow(&r, func() { q.add(&r, lines) }) // priority.go
			return
		}
		q.add(&r, lines)
	}
	seen := 0
	// Sized for every job of the reply at once: slices grown by append would copy themselves
	// several times over, each copy into memory not touched before (a page fault a page).
	size := func(n int) {
		if p.verbose > 0 && (n > 0 || len(p.jobs) != 1) {
			fmt.Fprintf(stdout, "last_update_time=%d records=%d\n", rep.LastUpdate, n)
		}
		if sortErr == nil {
			q.reserve(n, len(p.format.Header())+1)
		}
	}
	err := rep.EachJobSized(size, func(j *wire.JobInfo) bool {
		seen++
		if p.array {
			add(j)
		} else {
			p.pickTasks(j, add)
		}
		return true
	})
	if err != nil {
		stdout.Flush()
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	if len(p.jobs) == 1 && seen == 0 {
		stdout.Flush()
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
		return false
	}
	if sortErr != nil {
		stdout.WriteString(p.format.Header() + "\n")
		stdout.Flush()
		fmt.Fprintf(stderr, "squeue: error: %v\n", sortErr)
		return false
	}
	q.sort()
	if !p.noHeader {
		stdout.WriteString(p.format.Header() + "\n")
	}
	q.writeTo(stdout)
	return true
}
