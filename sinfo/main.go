// Command sinfo is Orbit's `sinfo`: it asks slurmctld for the node and partition tables
// (MsgNodeInfo) and prints them as Slurm 22.05's sinfo does, byte for byte: the partition,
// node (-N), summary (-s) and reasons (-R) views, -o/-O formats, filters, sort order, error
// texts and exit codes; -T lists the advance reservations (MsgResvInfo, reservations.go).
// The format engine is compat/format; this package parses the command line (options.go),
// filters nodes (filter.go), groups them into lines as Slurm does (sinfo_data.go,
// match_flags.go) and orders the lines (sort.go).
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
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(os.Args, os.LookupEnv, out, os.Stderr, time.Sleep)
	out.Flush()
	os.Exit(code)
}

// run is one sinfo invocation; it returns the exit status. sleep waits between -i rounds.
func run(argv []string, getenv func(string) (string, bool), stdout *bufio.Writer, stderr io.Writer, sleep func(time.Duration)) int {
	p, code := parseArgs(argv, getenv, stdout, stderr)
	if code >= 0 {
		if p != nil {
			cmdclient.PrintInfo(stdout, cmdclient.Info(p.action), helpText, usageText)
		}
		return code
	}
	if p.action == actJSON {
		return dumpData(p.mime, stdout, stderr) // json.go
	}
	c, err := cmdclient.Load("sinfo", "")
	if err != nil {
		stdout.Flush()
		cmdclient.Fatal(stderr, "sinfo", err)
	}
	rc := 0
	for {
		if !p.noHeader && (p.iterate > 0 || p.verbose > 0 || p.long) {
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

// report loads the tables once and prints them; false when the controller could not be
// asked (the error is printed as Slurm's slurm_perror does).
func report(c *cmdclient.Client, p *params, stdout *bufio.Writer, stderr io.Writer) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	if p.action == actReservations {
		var rep wire.ResvInfoReply
		if err := c.Call(ctx, wire.MsgResvInfo, &wire.ResvInfoRequest{}, &rep); err != nil {
			stdout.Flush()
			fmt.Fprintf(stderr, "slurm_load_reservations: %s\n", cmdclient.AsError(err).Text)
			return false
		}
		stdout.WriteString(renderReservations(rep.Reservations, p.noHeader, time.Now().Unix(), time.Local)) // reservations.go
		return true
	}
	var rep wire.NodeInfoReply
	if err := c.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{HideHidden: !p.all}, &rep); err != nil {
		stdout.Flush()
		fmt.Fprintf(stderr, "slurm_load_partitions: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	port := uint16(c.Conf.SlurmdPort)
	if port == 0 {
		port = 6818
	}
	stdout.WriteString(render(p, &rep, port))
	return true
}

// render groups, sorts and prints one snapshot of the tables.
func render(p *params, rep *wire.NodeInfoReply, slurmdPort uint16) string {
	// Without -a (or -p) the controller left hidden partitions out (for all but operators).
	groups := buildGroups(p, rep.Partitions, newNodeRecs(rep.Nodes))
	sortGroups(groups, p.sort, p.sortSet, p.nodeView)
	rows := p.finish(groups, slurmdPort)
	f := *p.format
	f.Items = append([]format.Item(nil), p.format.Items...)
	format.SetSinfoFieldWidths(&f, rows, p.partField, p.nodeField)
	return f.Render(rows, p.noHeader)
}
