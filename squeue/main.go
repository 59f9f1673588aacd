// Command squeue is Orbit's `squeue`: it asks slurmctld for the job table (MsgJobInfo) and
// prints it with Slurm 22.05's formats, filters, sort order, error texts and exit codes. The
// format engine is compat/format; this package parses the command line (options.go), selects
// and orders jobs (filter.go, sort.go) and fills format.JobRow from wire.JobInfo (row.go).
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
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(os.Args, os.LookupEnv, out, os.Stderr)
	out.Flush()
	os.Exit(code)
}

// run is one squeue invocation; it returns the exit status.
func run(argv []string, getenv func(string) (string, bool), stdout *bufio.Writer, stderr io.Writer) int {
	p, code := parseArgs(argv, getenv, stderr)
	if code >= 0 {
		if p == nil {
			return code
		}
		switch p.action {
		case actHelp:
			io.WriteString(stdout, helpText)
		case actUsage:
			io.WriteString(stdout, usageText)
		case actVersion:
			fmt.Fprintln(stdout, version.String())
		}
		return code
	}
	c, err := cmdclient.Load("squeue", "")
	if err != nil {
		stdout.Flush()
		cmdclient.Fatal(stderr, "squeue", err)
	}
	req := &wire.JobInfoRequest{ShowAll: p.all}
	if len(p.jobs) == 1 {
		// Slurm asks for the one job alone, and reports one that does not exist.
		req.JobIDs = []uint32{p.jobs[0].id}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	var rep wire.JobInfoReply
	if err := c.Call(ctx, wire.MsgJobInfo, req, &rep); err != nil {
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.AsError(err).Text)
		return 1
	}
	if len(p.jobs) == 1 && len(rep.Jobs) == 0 {
		fmt.Fprintf(stderr, "slurm_load_jobs error: %s\n", cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
		return 1
	}
	now := time.Now()
	var rows []*format.JobRow
	for i := range rep.Jobs {
		j := &rep.Jobs[i]
		if !p.selects(j) {
			continue
		}
		rows = append(rows, jobRow(j, now))
	}
	if err := sortRows(rows, p.sort); err != nil {
		stdout.WriteString(p.format.Header() + "\n")
		stdout.Flush()
		fmt.Fprintf(stderr, "squeue: error: %v\n", err)
		return 1
	}
	if p.long && !p.noHeader {
		stdout.WriteString(now.Format("Mon Jan 02 15:04:05 2006") + "\n")
	}
	stdout.WriteString(p.format.Render(rows, p.noHeader))
	return 0
}
