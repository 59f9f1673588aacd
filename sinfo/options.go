package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

type action int

// actHelp, actUsage and actVersion are cmdclient's Info values, which main.go prints with
// cmdclient.PrintInfo.
const (
	actList    = action(cmdclient.InfoNone)
	actHelp    = action(cmdclient.InfoHelp)
	actUsage   = action(cmdclient.InfoUsage)
	actVersion = action(cmdclient.InfoVersion)
)

const (
	actReservations = actVersion + 1 + iota // -T
	actJSON                                 // --json / --yaml
)

// params is one sinfo invocation's options (Slurm's struct sinfo_parameters, the part
// Orbit honours).
type params struct {
	action    action
	mime      string // "json" or "yaml" with actJSON
	all       bool   // show hidden partitions (-a, -p, SINFO_PARTITION; --hide clears it)
	dead      bool   // -d
	responded bool   // -r
	exact     bool   // -e
	noHeader  bool
	long      bool
	nodeView  bool // -N
	reasons   bool // -R
	summarize bool // -s
	noConvert bool
	verbose   int
	iterate   int // seconds; 0 = once

	nodes      string          // -n as given (after Slurm's single-host normalisation)
	nodeSet    map[string]bool // -n expanded
	partition  string          // -p / SINFO_PARTITION as given
	partList   []string        // nil = every partition
	stateText  string          // -t as given
	stateSet   bool            // a state list is in force (-t, or -R's default)
	states     states.NodeStateFilter
	sort       string // -S / SINFO_SORT; "" = the view's default
	sortSet    bool
	formatText string // the format in force, as printed by -v

	defFormat bool // no -o/-O/SINFO_FORMAT: a built-in format
	partField bool // the partition columns take the widest partition name
	nodeField bool // the node-list columns take the widest node list
	filtering bool
	flags     matchFlags
	format    *format.SinfoFormat
}

var opts = []cmdclient.Opt{
	{Long: "all", Short: 'a'},
	{Long: "dead", Short: 'd'},
	{Long: "exact", Short: 'e'},
	{Long: "federation"},
	{Long: "help"},
	{Long: "hide"},
	{Long: "iterate", Short: 'i', Arg: cmdclient.RequiredArg},
	{Long: "local"},
	{Long: "long", Short: 'l'},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "clusters", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "nodes", Short: 'n', Arg: cmdclient.RequiredArg},
	{Long: "noconvert"},
	{Long: "noheader", Short: 'h'},
	{Long: "Node", Short: 'N'},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "Format", Short: 'O', Arg: cmdclient.RequiredArg},
	{Long: "partition", Short: 'p', Arg: cmdclient.RequiredArg},
	{Long: "responding", Short: 'r'},
	{Long: "list-reasons", Short: 'R'},
	{Long: "summarize", Short: 's'},
	{Long: "sort", Short: 'S', Arg: cmdclient.RequiredArg},
	{Long: "states", Short: 't', Arg: cmdclient.RequiredArg},
	{Long: "reservation", Short: 'T'},
	{Long: "usage"},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "json"},
	{Long: "yaml"},
}

// exitError is a message already printed and the status sinfo exits with.
type exitError struct{ code int }

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// parseArgs parses the command line and the SINFO_* environment as Slurm's
// parse_command_line does. code is -1 to go on, or the exit status to return at once (after
// help/usage/version, or an error already printed on stderr).
func parseArgs(argv []string, getenv func(string) (string, bool), stdout, stderr io.Writer) (*params, int) {
	p := &params{}
	prog := "sinfo"
	if len(argv) > 0 {
		prog = argv[0]
	}
	errorf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "sinfo: error: "+format+"\n", a...)
	}

	envAll, envPart := false, false
	if _, ok := getenv("SINFO_ALL"); ok {
		envAll, p.all = true, true
	}
	if v, ok := getenv("SINFO_PARTITION"); ok {
		envPart = true
		p.partition, p.partList, p.all = v, splitParts(v), true
	}
	if envAll && envPart {
		errorf("Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one or the other.")
		return nil, 1
	}
	if v, ok := getenv("SINFO_SORT"); ok {
		p.sort, p.sortSet = v, true
	}
	if v, ok := getenv("SLURM_CLUSTERS"); ok {
		cmdclient.ClusterUnreachable(stderr, "sinfo", v, true)
		return nil, 1
	}

	found, _, ok := cmdclient.ParseOptions("sinfo", prog, argv[1:], opts, stderr)
	if !ok {
		return nil, 1
	}
	var spec string
	specSet, longForm := false, false
	optA, optP := false, false
	for _, f := range found {
		switch f.Opt.Long {
		case "all":
			optA = true
			p.partition, p.partList, p.all = "", nil, true
		case "dead":
			p.dead = true
		case "exact":
			p.exact = true
		case "noheader":
			p.noHeader = true
		case "iterate":
			n := atoi(f.Value)
			if n <= 0 {
				errorf("Error: invalid entry for --iterate=%s", f.Value)
				return nil, 1
			}
			p.iterate = n
		case "long":
			p.long = true
		case "cluster", "clusters":
			cmdclient.ClusterUnreachable(stderr, "sinfo", f.Value, false)
			return nil, 1
		case "noconvert":
			p.noConvert = true
		case "nodes":
			hl, err := hostlist.Parse(f.Value)
			if err != nil {
				errorf("'%s' invalid entry for --nodes", f.Value)
				return nil, 1
			}
			p.nodes = f.Value
			p.nodeSet = map[string]bool{}
			for _, h := range hl.Hosts() {
				p.nodeSet[h] = true
			}
		case "Node":
			p.nodeView = true
		case "format":
			spec, specSet, longForm = f.Value, true, false
		case "Format":
			spec, specSet, longForm = f.Value, true, true
		case "partition":
			optP = true
			p.partition, p.partList, p.all = f.Value, splitParts(f.Value), true
		case "responding":
			p.responded = true
		case "list-reasons":
			p.reasons = true
		case "summarize":
			p.summarize = true
		case "sort":
			p.sort, p.sortSet = f.Value, true
		case "states":
			st, err := states.ParseNodeStateList(f.Value)
			if err != nil {
				var se *states.NodeStateListError
				if errors.As(err, &se) {
					for _, l := range se.Lines() {
						errorf("%s", l)
					}
				} else {
					errorf("%v", err)
				}
				return nil, 1
			}
			p.stateText, p.states, p.stateSet = f.Value, st, true
		case "reservation":
			if p.action != actJSON { // Slurm's --json and --yaml win over -T, wherever it stands
				p.action = actReservations
			}
		case "verbose":
			p.verbose++
		case "version":
			p.action = actVersion
			return p, 0
		case "help":
			p.action = actHelp
			return p, 0
		case "usage":
			p.action = actUsage
			return p, 0
		case "hide":
			p.all = false
		case "federation", "local":
			// Orbit clusters are never federated: both mean the local cluster, as they do
			// on a reference that is not in a federation.
		case "json":
			p.action, p.mime = actJSON, "json"
		case "yaml":
			p.action, p.mime = actJSON, "yaml"
		}
	}
	if p.long && specSet {
		fmt.Fprintf(stderr, "sinfo: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1
	}
	if optA && optP {
		errorf("Conflicting options, -a and -p, specified. Please choose one or the other.")
		return nil, 1
	}

	if !specSet {
		p.defFormat = true
		switch {
		case p.summarize:
			longForm, p.partField, spec = true, true, format.SinfoSummarize
		case p.nodeView:
			longForm, p.nodeField, p.partField = true, true, true
			spec = format.SinfoNode
			if p.long {
				spec = format.SinfoNodeLong
			}
		case p.reasons:
			longForm, spec = true, format.SinfoReasons
			if p.long {
				spec = format.SinfoReasonsLong
			}
		default:
			if v, ok := format.SinfoFormatFromEnv(getenv); ok {
				spec = v
				break
			}
			longForm, p.partField, spec = true, true, format.SinfoDefault
			if p.long {
				spec = format.SinfoLong
			}
		}
	}
	p.formatText = spec
	var msgs []string
	if longForm {
		p.format, msgs = format.Sinfo.ParseLong(spec)
	} else {
		p.format, msgs = format.Sinfo.Parse(spec)
	}
	for _, m := range msgs {
		fmt.Fprintln(stderr, m)
	}
	p.flags = flagsOf(p.format)

	if p.reasons && !p.stateSet {
		p.stateText = "down,fail,drain"
		p.states, _ = states.ParseNodeStateList(p.stateText)
		p.stateSet = true
	}
	p.filtering = p.dead || p.nodeSet != nil || p.partition != "" || p.responded || p.stateSet
	if p.verbose > 0 {
		printOptions(stdout, p)
	}
	return p, -1
}

// splitParts splits a partition list at commas, skipping empty names as Slurm's _next_tok
// does ("debug,,x" names debug and x).
func splitParts(s string) []string {
	out := []string{}
	for _, it := range strings.Split(s, ",") {
		if it != "" {
			out = append(out, it)
		}
	}
	return out
}

// atoi is glibc's atoi, (int)strtol(s, NULL, 10): leading blanks, a sign, then digits up to
// the first non-digit; 0 when there are none; strtol saturates at the long range and the
// cast keeps the low 32 bits.
func atoi(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v uint64
	over := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if v > (1<<63)/10 {
			over = true
		}
		v = v*10 + uint64(s[i]-'0')
		if v > 1<<63 {
			over = true
		}
	}
	var l int64
	switch {
	case over && neg:
		l = math.MinInt64
	case over:
		l = math.MaxInt64
	case neg:
		l = -int64(v)
	default:
		if v == 1<<63 {
			l = math.MaxInt64
		} else {
			l = int64(v)
		}
	}
	return int(int32(l))
}
