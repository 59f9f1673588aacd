// Command sacct is Orbit's `sacct`: it asks slurmctld's embedded accounting (MsgAcctQuery,
// answered from the SQLite store beside the controller's state) for jobs and their steps and
// prints them with Slurm 22.05's fields, widths, parsable forms, defaults and error texts.
//
// Accounting is selected in slurm.conf by AccountingStorageType=accounting_storage/orbit
// (the quick start's value) or accounting_storage/slurmdbd (a migrating site's value, served
// by the same embedded store: Orbit has no slurmdbd). With accounting_storage/none sacct says
// "Slurm accounting storage is disabled" and exits 1, as Slurm's does.
//
// Files: options.go (command line, defaults), print.go (field values of job and step lines),
// script.go (-B, --env-vars), json.go (--json, --yaml: the openapi dbv0.0.38 job layout and
// the json-c / libyaml text forms).
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(os.Args, os.LookupEnv, out, os.Stderr)
	out.Flush()
	os.Exit(code)
}

// run is one sacct invocation; it returns the exit status.
func run(argv []string, getenv func(string) (string, bool), stdout *bufio.Writer, stderr io.Writer) int {
	now := time.Now()
	p, showVersion, err := parseArgs(argv, now, uint32(os.Getuid()))
	if showVersion {
		fmt.Fprintln(stdout, version.String())
		return 0
	}
	if err != nil {
		return fail(stderr, err)
	}
	if p.verbose > 0 {
		fmt.Fprintln(stderr, p.windowInfo())
	}
	c, err := cmdclient.Load("sacct", "")
	if err != nil {
		stdout.Flush()
		cmdclient.Fatal(stderr, "sacct", err)
	}
	if p.completion {
		// -c reads JobCompType's data instead of accounting. Orbit writes no job
		// completion log or database, so any plugin but none is refused by name rather
		// than answered with accounting's data in another shape.
		if c.Conf.JobCompType == "" || c.Conf.JobCompType == "jobcomp/none" {
			fmt.Fprintln(stderr, "Slurm job completion is disabled")
			return 1
		}
		return fail(stderr, errorf("--completion: JobCompType=%s is not supported by Orbit (it keeps no job completion data); use sacct without -c", c.Conf.JobCompType))
	}
	if p.verbose > 0 {
		// The storage plugin's load message at info level.
		io.WriteString(stderr, cmdclient.AccountingPluginLine("sacct", c.Conf))
	}
	if !c.Conf.AccountingEnabled() {
		fmt.Fprintln(stderr, "Slurm accounting storage is disabled")
		return 1
	}
	if p.qosSet {
		if err := p.resolveQOS(); err != nil {
			return fail(stderr, err)
		}
	}
	cols, err := format.ParseSacctFormat(p.fields(getenv))
	if err != nil {
		if strings.HasPrefix(err.Error(), "Invalid field") {
			return fail(stderr, errorf("%s", err.Error()))
		}
		return fail(stderr, fatalf("%s", err.Error())) // AllocGRES/ReqGRES: Slurm's fatal()
	}
	if err := p.operandError(); err != nil {
		return fail(stderr, err)
	}
	switch p.action {
	case actHelp:
		io.WriteString(stdout, helpText)
		return 0
	case actUsage:
		io.WriteString(stdout, "Usage: sacct [options]\n\tUse --help for help\n")
		return 0
	case actHelpFormat:
		io.WriteString(stdout, helpFormat())
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	if p.json || p.yaml || p.req.Script || p.req.Env {
		// No header: --json/--yaml print one document, -B/--env-vars one block per job.
		var rep wire.AcctQueryReply
		if err := query(ctx, c, p, &rep); err != nil {
			fmt.Fprintf(stderr, "sacct: error: Problem talking to the database: %s\n", cmdclient.AsError(err).Text)
			return 1
		}
		if p.truncate {
			truncateTimes(&rep, p.req.Start, p.req.End, now)
		}
		switch {
		case p.json || p.yaml:
			doc := jobsDocument(&rep, now)
			if p.yaml {
				stdout.WriteString(yamlText(doc))
			} else {
				stdout.WriteString(jsonText(doc))
			}
		case p.req.Script:
			for i := range rep.Jobs {
				stdout.WriteString(scriptBlock(&rep.Jobs[i]))
			}
		default:
			for i := range rep.Jobs {
				stdout.WriteString(envBlock(&rep.Jobs[i]))
			}
		}
		return 0
	}
	pr := &format.SacctPrinter{Columns: cols, Parsable: p.parsable, Delimiter: p.delimiter}
	// Slurm prints the header before it asks the database.
	stdout.WriteString(pr.Header(p.noHeader))
	var rep wire.AcctQueryReply
	if err := query(ctx, c, p, &rep); err != nil {
		stdout.Flush()
		fmt.Fprintf(stderr, "sacct: error: Problem talking to the database: %s\n", cmdclient.AsError(err).Text)
		return 1
	}
	if p.truncate {
		truncateTimes(&rep, p.req.Start, p.req.End, now)
	}
	for i := range rep.Jobs {
		j := &rep.Jobs[i]
		if !j.StepsOnly {
			stdout.WriteString(pr.Row(jobValues(cols, j, now, pr.Parsable != format.SacctColumns)))
		}
		if p.req.NoSteps {
			continue
		}
		for k := range j.Steps {
			stdout.WriteString(pr.Row(stepValues(cols, j, &j.Steps[k], now, pr.Parsable != format.SacctColumns)))
		}
	}
	return 0
}

// query asks the controller's accounting for the jobs p selects; -M naming only other
// clusters selects none without asking (the store holds this cluster's jobs only).
func query(ctx context.Context, c *cmdclient.Client, p *params, rep *wire.AcctQueryReply) error {
	if !p.coversCluster(c.Conf.ClusterName) {
		return nil
	}
	return c.Call(ctx, wire.MsgAcctQuery, &p.req, rep)
}

func fail(stderr io.Writer, err error) int {
	if e, ok := err.(*exitError); ok {
		if e.text != "" {
			fmt.Fprintln(stderr, e.text)
		}
		return e.code
	}
	fmt.Fprintf(stderr, "sacct: error: %v\n", err)
	return 1
}

// helpFormat is --helpformat: the field names four to a line, each in 19 columns.
func helpFormat() string {
	var b []byte
	for i, f := range format.SacctFields {
		switch {
		case i&3 != 0:
			b = append(b, ' ')
		case i != 0:
			b = append(b, '\n')
		}
		b = fmt.Appendf(b, "%-19s", f.Name)
	}
	return string(append(b, '\n'))
}

// truncateTimes is -T, as slurmdbd applies it: the window's end is at most now; a job's or
// step's start before the window moves to its start, an end after the window (or none yet)
// to its end, and a job that never started starts at that end.
func truncateTimes(rep *wire.AcctQueryReply, start, end int64, now time.Time) {
	if end == 0 || end > now.Unix() {
		end = now.Unix()
	}
	for i := range rep.Jobs {
		j := &rep.Jobs[i]
		if j.Start != 0 && j.Start < start {
			j.Start = start
		}
		if j.End == 0 || j.End > end {
			j.End = end
		}
		if j.Start == 0 {
			j.Start = j.End
		}
		if start == 0 {
			continue
		}
		for k := range j.Steps {
			s := &j.Steps[k]
			if s.Start != 0 && s.Start < start {
				s.Start = start
			}
			if s.Start == 0 && s.End != 0 {
				s.Start = s.End
			}
			if s.End == 0 || s.End > end {
				s.End = end
			}
			if s.Start != 0 && s.End != 0 && s.Start > s.End {
				s.Start, s.End = 0, 0
			}
		}
	}
}
