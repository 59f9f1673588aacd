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
	rc := 0
	for {
		if !p.noHeader && (p.iterate > 0 || p.long) {
			stdout.WriteString(time.Now().Format("Mon Jan 02 15:04:05 2006") + "\n")
		}
		if !report(c, p, stdout, stderr) {
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

// report asks for the jobs (or steps) once and prints them; false after an error.
func report(c *cmdclient.Client, p *params, stdout *bufio.Writer, stderr io.Writer) bool {
	req := p.request()
	single := !p.steps && len(p.jobs) == 1
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
	if err := rep.Unpack(); err != nil {
		stdout.Flush()
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	if single && len(rep.Jobs) == 0 {
		stdout.Flush()
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
		return false
	}
	now := time.Now()
	if p.steps {
		return reportSteps(p, rep.Steps, now, stdout, stderr)
	}
	jobs := rep.Jobs
	if !p.array {
		jobs = p.pickTasks(jobs)
	}
	var rows []*format.JobRow
	for i := range jobs {
		j := &jobs[i]
		if !p.selects(j) {
			continue
		}
		r := jobRow(j, now)
		r.NoConvert = p.noConvert
		r.ArrayTaskStrUncut = p.array
		rows = append(rows, r)
	}
	if err := sortRows(rows, p.sort); err != nil {
		stdout.WriteString(p.format.Header() + "\n")
		stdout.Flush()
		fmt.Fprintf(stderr, "squeue: error: %v\n", err)
		return false
	}
	if p.array {
		rows = expandArrays(rows) // at print time, as Slurm: the record sorts as one line
	}
	stdout.WriteString(p.format.Render(rows, p.noHeader))
	return true
}
