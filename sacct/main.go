// Command sacct is Orbit's `sacct`: it asks slurmctld's embedded accounting (MsgAcctQuery,
// answered from the SQLite store beside the controller's state) for jobs and their steps and
// prints them with Slurm 22.05's fields, widths, parsable forms, defaults and error texts.
//
// Accounting is selected in slurm.conf by AccountingStorageType=accounting_storage/orbit
// (the quick start's value) or accounting_storage/slurmdbd (a migrating site's value, served
// by the same embedded store: Orbit has no slurmdbd). With accounting_storage/none sacct says
// "Slurm accounting storage is disabled" and exits 1, as Slurm's does.
//
// Files: options.go (command line, defaults), print.go (field values of job and step lines).
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
	c, err := cmdclient.Load("sacct", "")
	if err != nil {
		stdout.Flush()
		cmdclient.Fatal(stderr, "sacct", err)
	}
	if !c.Conf.AccountingEnabled() {
		fmt.Fprintln(stderr, "Slurm accounting storage is disabled")
		return 1
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
	if p.json {
		var rep wire.AcctQueryReply
		if err := c.Call(ctx, wire.MsgAcctQuery, &p.req, &rep); err != nil {
			fmt.Fprintf(stderr, "sacct: error: Problem talking to the database: %s\n", cmdclient.AsError(err).Text)
			return 1
		}
		return writeJSON(stdout, &rep, now)
	}
	pr := &format.SacctPrinter{Columns: cols, Parsable: p.parsable, Delimiter: p.delimiter}
	// Slurm prints the header before it asks the database.
	stdout.WriteString(pr.Header(p.noHeader))
	var rep wire.AcctQueryReply
	if err := c.Call(ctx, wire.MsgAcctQuery, &p.req, &rep); err != nil {
		stdout.Flush()
		fmt.Fprintf(stderr, "sacct: error: Problem talking to the database: %s\n", cmdclient.AsError(err).Text)
		return 1
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

func fail(stderr io.Writer, err error) int {
	if e, ok := err.(*exitError); ok {
		fmt.Fprintln(stderr, e.text)
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
