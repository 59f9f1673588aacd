// Command sdiag is Orbit's `sdiag`: it asks slurmctld for its statistics (MsgStats: RPC
// counts and times by message type and by user, main scheduler cycles, job counts) and prints
// them in Slurm 22.05's layout, or with -r starts a new statistics period (operators only).
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

// options are sdiag's command line.
type options struct {
	reset bool
	sort  sortBy
	info  cmdclient.Info
}

var optTable = []cmdclient.Opt{
	{Long: "all", Short: 'a', Arg: cmdclient.NoArg},
	{Long: "help", Short: 'h', Arg: cmdclient.NoArg},
	{Long: "reset", Short: 'r', Arg: cmdclient.NoArg},
	{Long: "sort-by-id", Short: 'i', Arg: cmdclient.NoArg},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "clusters", Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "sort-by-time", Short: 't', Arg: cmdclient.NoArg},
	{Long: "sort-by-time2", Short: 'T', Arg: cmdclient.NoArg},
	{Long: "usage", Arg: cmdclient.NoArg},
	{Long: "version", Short: 'V', Arg: cmdclient.NoArg},
}

// parseArgs parses sdiag's options as Slurm's sdiag does: operands are ignored, --help,
// --usage and -V act at once (in command-line order), and -M or SLURM_CLUSTERS fail as
// Slurm's do without a database. A code >= 0 means exit with it now.
func parseArgs(argv []string, stderr io.Writer) (*options, int) {
	if v, ok := os.LookupEnv("SLURM_CLUSTERS"); ok { // read before the options, as Slurm's sdiag
		cmdclient.ClusterUnreachable(stderr, "sdiag", v, true)
		return nil, 1
	}
	found, _, ok := cmdclient.ParseOptions("sdiag", argv[0], argv[1:], optTable, stderr)
	if !ok {
		return nil, 1
	}
	o := &options{sort: byCount}
	for _, f := range found {
		switch f.Opt.Long {
		case "help":
			o.info = cmdclient.InfoHelp
			return o, 0
		case "usage":
			o.info = cmdclient.InfoUsage
			return o, 0
		case "version":
			o.info = cmdclient.InfoVersion
			return o, 0
		case "all":
			o.reset = false
		case "reset":
			o.reset = true
		case "sort-by-id":
			o.sort = byID
		case "sort-by-time":
			o.sort = byTime
		case "sort-by-time2":
			o.sort = byAveTime
		case "cluster", "clusters":
			cmdclient.ClusterUnreachable(stderr, "sdiag", f.Value, false)
			return nil, 1
		}
	}
	return o, -1
}

func run(argv []string, stdout, stderr io.Writer) int {
	o, code := parseArgs(argv, stderr)
	if code >= 0 {
		if o != nil {
			cmdclient.PrintInfo(stdout, o.info, helpText, usageText)
		}
		return code
	}
	c, err := cmdclient.Load("sdiag", "")
	if err != nil {
		cmdclient.Fatal(stderr, "sdiag", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	if o.reset {
		if err := c.Call(ctx, wire.MsgStats, &wire.StatsRequest{Reset: true}, nil); err != nil {
			// slurm_perror's form; sdiag exits with SLURM_ERROR (-1).
			fmt.Fprintf(stderr, "slurm_reset_statistics: %s\n", cmdclient.AsError(err).Text)
			return 255
		}
		fmt.Fprintln(stdout, "Reset scheduling statistics")
		return 0
	}
	var rep wire.StatsReply
	if err := c.Call(ctx, wire.MsgStats, &wire.StatsRequest{}, &rep); err != nil {
		fmt.Fprintf(stderr, "slurm_get_statistics: %s\n", cmdclient.AsError(err).Text)
		return 255
	}
	sortRPCs(&rep, o.sort)
	io.WriteString(stdout, render(&rep, lookupUser))
	return 0
}
