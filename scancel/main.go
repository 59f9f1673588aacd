// Command scancel is Orbit's `scancel`: it cancels or signals jobs with Slurm 22.05's options,
// messages and exit codes. Job ids are sent as given; filters (-u, -n, -t, -p) are resolved
// against the job table (MsgJobInfo) and then one MsgKillJob goes per job, as Slurm's scancel
// does.
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	p, code := parseArgs(argv, stderr)
	if code >= 0 {
		if p != nil {
			switch p.action {
			case actHelp:
				io.WriteString(stdout, helpText)
			case actUsage:
				io.WriteString(stdout, usageText)
			case actVersion:
				fmt.Fprintln(stdout, version.String())
			}
		}
		return code
	}
	c, err := cmdclient.Load("scancel", "")
	if err != nil {
		cmdclient.Fatal(stderr, "scancel", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(p.jobs)+2)*(2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second))
	defer cancel()

	targets := p.jobs
	if p.hasFilter() {
		var rep wire.JobInfoReply
		if err := c.Call(ctx, wire.MsgJobInfo, &wire.JobInfoRequest{}, &rep); err != nil {
			fmt.Fprintf(stderr, "scancel: error: slurm_load_jobs error: %s\n", cmdclient.AsError(err).Text)
			return 1
		}
		targets = p.resolve(rep.Jobs)
		if len(targets) == 0 {
			if p.verbose > 0 {
				fmt.Fprintf(stderr, "scancel: error: No active jobs match ALL job filters, including: %s\n", p.filterText())
			}
			return 0
		}
	}
	rc := 0
	for _, t := range targets {
		req := &wire.KillJobRequest{JobID: t.id, ArrayTaskID: t.task, Signal: p.signal, Flags: p.flags}
		if p.verbose > 0 {
			fmt.Fprintf(stderr, "scancel: %s %s\n", p.verb(), t)
		}
		var rep wire.KillJobReply
		err := c.Call(ctx, wire.MsgKillJob, req, &rep)
		var e *cmdclient.Error
		switch {
		case err != nil:
			e = cmdclient.AsError(err)
		case rep.Errno != 0:
			e = &cmdclient.Error{Errno: rep.Errno, Text: rep.Text}
			if e.Text == "" {
				e = cmdclient.NewError(rep.Errno)
			}
		}
		if e == nil {
			continue
		}
		// A job that does not exist or already ended is reported only with -v, and is not a
		// failure (Slurm 22.05).
		quiet := e.Errno == cmdclient.ErrnoInvalidJobID || e.Errno == cmdclient.ErrnoAlreadyDone
		if !quiet || p.verbose > 0 {
			fmt.Fprintf(stderr, "scancel: error: Kill job error on job id %s: %s\n", t, e.Text)
		}
		if !quiet {
			rc = cmdclient.ExitStatus(e.Errno)
		}
	}
	return rc
}
