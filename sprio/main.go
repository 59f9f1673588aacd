// Command sprio is Orbit's `sprio`: it shows the factors behind each pending job's priority
// under priority/multifactor, as Slurm 22.05's sprio (src/sprio) prints them. It asks
// slurmctld with MsgPriorityFactors; with priority/basic in the local slurm.conf it refuses
// before asking, with Slurm's message and exit code.
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	os.Exit(run(os.Args, os.Environ(), os.Stdout, os.Stderr))
}

// options are sprio's command line.
type options struct {
	noHeader, long, norm, weights bool
	jobFlag                       bool
	jobs                          string // -j's value (or the operand after a bare -j)
	jobIDs                        []uint32
	users                         string
	uids                          []uint32
	usersGiven                    bool // -u given: an empty uids list then matches nothing, as in Slurm
	parts                         string
	format                        string
	formatSet                     bool // -o or -l: SPRIO_FORMAT is not read
	sort                          string
	verbose                       int
	info                          cmdclient.Info
}

var optTable = []cmdclient.Opt{
	{Long: "noheader", Short: 'h', Arg: cmdclient.NoArg},
	{Long: "jobs", Short: 'j', Arg: cmdclient.OptionalArg},
	{Long: "long", Short: 'l', Arg: cmdclient.NoArg},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "clusters", Arg: cmdclient.RequiredArg, Val: "cluster"},
	{Long: "norm", Short: 'n', Arg: cmdclient.NoArg},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "sort", Short: 'S', Arg: cmdclient.RequiredArg},
	{Long: "partition", Short: 'p', Arg: cmdclient.RequiredArg},
	{Long: "user", Short: 'u', Arg: cmdclient.RequiredArg},
	{Long: "users", Arg: cmdclient.RequiredArg, Val: "user"},
	{Long: "verbose", Short: 'v', Arg: cmdclient.NoArg},
	{Long: "version", Short: 'V', Arg: cmdclient.NoArg},
	{Long: "weights", Short: 'w', Arg: cmdclient.NoArg},
	{Long: "federation", Arg: cmdclient.NoArg},
	{Long: "help", Arg: cmdclient.NoArg},
	{Long: "local", Arg: cmdclient.NoArg},
	{Long: "sib", Arg: cmdclient.NoArg, Val: "sibling"},
	{Long: "sibling", Arg: cmdclient.NoArg},
	{Long: "usage", Arg: cmdclient.NoArg},
}

// parseArgs parses sprio's command line as Slurm's parse_command_line does. A code >= 0
// means exit with it now (after printing o.info when o is not nil).
func parseArgs(argv, env []string, stdout, stderr io.Writer) (*options, int) {
	for _, e := range env { // read before the options, as Slurm's sprio
		if v, ok := strings.CutPrefix(e, "SLURM_CLUSTERS="); ok {
			cmdclient.ClusterUnreachable(stderr, "sprio", v, true)
			return nil, 1
		}
	}
	found, operands, ok := cmdclient.ParseOptions("sprio", argv[0], argv[1:], optTable, stderr)
	if !ok {
		return nil, 1
	}
	o := &options{}
	for _, f := range found {
		name := f.Opt.Long
		if f.Opt.Val != "" {
			name = f.Opt.Val
		}
		switch name {
		case "help":
			o.info = cmdclient.InfoHelp
			return o, 0
		case "usage":
			o.info = cmdclient.InfoUsage
			return o, 0
		case "version":
			o.info = cmdclient.InfoVersion
			return o, 0
		case "noheader":
			o.noHeader = true
		case "jobs":
			if f.HasValue {
				if !o.setJobs(f.Value, stderr) {
					return nil, 1
				}
			}
			o.jobFlag = true
		case "long":
			o.long, o.formatSet = true, true
		case "cluster":
			cmdclient.ClusterUnreachable(stderr, "sprio", f.Value, false)
			return nil, 1
		case "norm":
			o.norm = true
		case "format":
			o.format, o.formatSet = f.Value, true
		case "sort":
			o.sort = f.Value
		case "partition":
			o.parts = f.Value
		case "user":
			o.users, o.usersGiven = f.Value, true
			o.uids = buildUserList(f.Value, stderr)
		case "verbose":
			o.verbose++
		case "weights":
			o.weights = true
		case "federation", "local", "sibling":
			// One cluster, no federation: the local view is the only one.
		}
	}
	if o.long && o.format != "" {
		fmt.Fprintf(stderr, "sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1
	}
	if !o.formatSet {
		for _, e := range env {
			if v, ok := strings.CutPrefix(e, "SPRIO_FORMAT="); ok {
				o.format = v
			}
		}
	}
	if len(operands) > 0 && o.jobFlag {
		if !o.setJobs(operands[0], stderr) {
			return nil, 1
		}
		operands = operands[1:]
	}
	if len(operands) > 0 {
		fmt.Fprintf(stderr, "sprio: error: Unrecognized option: %s\n", operands[0])
		io.WriteString(stdout, usageText)
		return nil, 1
	}
	if o.verbose > 0 {
		o.printOptions(stdout)
	}
	return o, -1
}

// setJobs reads a comma-separated job id list (-j). A bad id is fatal, as in Slurm.
func (o *options) setJobs(s string, stderr io.Writer) bool {
	o.jobs = s
	o.jobIDs = nil
	for _, tok := range strings.Split(s, ",") {
		if tok == "" {
			continue
		}
		id, err := parseJobID(tok)
		if err != nil {
			fmt.Fprintf(stderr, "sprio: error: Invalid job id: %s\n", tok)
			return false
		}
		o.jobIDs = append(o.jobIDs, id)
	}
	return true
}

// parseJobID reads a job id as slurm_xlate_job_id does for sprio: a positive number; an
// array task's "ID_N" names its array (Orbit matches the array's id and each task's).
func parseJobID(s string) (uint32, error) {
	head, _, _ := strings.Cut(s, "_")
	n, err := strconv.ParseUint(head, 10, 32)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("invalid job id %q", s)
	}
	return uint32(n), nil
}

// buildUserList resolves comma-separated user names or uids; a bad one is reported and
// skipped, as Slurm's _build_user_list does (its message carries a stray newline).
func buildUserList(s string, stderr io.Writer) []uint32 {
	var uids []uint32
	for _, name := range strings.Split(s, ",") {
		if name == "" {
			continue
		}
		uid, ok := lookupUID(name)
		if !ok {
			fmt.Fprintf(stderr, "sprio: error: Invalid user: %s\n\n", name)
			continue
		}
		uids = append(uids, uid)
	}
	return uids
}

// lookupUID is uid_from_string (userdb.UIDFromString).
func lookupUID(name string) (uint32, bool) { return userdb.UIDFromString(name) }

// printOptions is -v's dump of the parsed options (to stdout, as Slurm's printf).
func (o *options) printOptions(w io.Writer) {
	null := func(s string, set bool) string {
		if !set {
			return "(null)"
		}
		return s
	}
	fmt.Fprintf(w, "-----------------------------\n")
	fmt.Fprintf(w, "format     = %s\n", null(o.format, o.format != ""))
	fmt.Fprintf(w, "job_flag   = %d\n", b2i(o.jobFlag))
	fmt.Fprintf(w, "jobs       = %s\n", null(o.jobs, o.jobs != ""))
	fmt.Fprintf(w, "partition  = %s\n", null(o.parts, o.parts != ""))
	fmt.Fprintf(w, "users      = %s\n", null(o.users, o.usersGiven))
	fmt.Fprintf(w, "verbose    = %d\n", o.verbose)
	if o.verbose > 1 {
		for i, id := range o.jobIDs {
			fmt.Fprintf(w, "job_list[%d] = %d\n", i, id)
		}
		for i, u := range o.uids {
			fmt.Fprintf(w, "user_list[%d] = %d\n", i, u)
		}
	}
	fmt.Fprintf(w, "-----------------------------\n\n\n")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func run(argv, env []string, stdout, stderr io.Writer) int {
	o, code := parseArgs(argv, env, stdout, stderr)
	if code >= 0 {
		if o != nil {
			cmdclient.PrintInfo(stdout, o.info, helpText, usageText)
		}
		return code
	}
	c, err := cmdclient.Load("sprio", "")
	if err != nil {
		cmdclient.Fatal(stderr, "sprio", err)
	}
	p := c.Conf.Priority
	if strings.EqualFold(c.Conf.PriorityType, "priority/basic") {
		fmt.Fprintf(stderr, "You are not running a supported priority plugin\n(%s).\nOnly 'priority/multifactor' is supported.\n", c.Conf.PriorityType)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	req := &wire.PriorityFactorsRequest{JobIDs: o.jobIDs, UserIDs: o.uids, Partitions: o.parts}
	var rep wire.PriorityFactorsReply
	if err := c.Call(ctx, wire.MsgPriorityFactors, req, &rep); err != nil {
		// slurm_perror's form; sprio exits with slurm_load_job_prio's SLURM_ERROR (-1).
		fmt.Fprintf(stderr, "Couldn't get priority factors from controller: %s\n", cmdclient.AsError(err).Text)
		return 255
	}
	if o.usersGiven && len(o.uids) == 0 {
		rep.Factors = nil // every name was bad: Slurm's empty user list matches no job
	}
	w := weights{age: p.WeightAge, assoc: p.WeightAssoc, fs: p.WeightFairShare, js: p.WeightJobSize,
		part: p.WeightPartition, qos: p.WeightQOS, tres: p.WeightTRES}
	format := o.format
	if format == "" {
		format = defaultFormat(o, w)
	}
	fields := parseFormat(format, stderr)
	if o.jobs != "" && len(rep.Factors) == 0 {
		fmt.Fprintf(stdout, "Unable to find jobs matching user/id(s) specified\n")
		return 0
	}
	if err := sortFactors(rep.Factors, o.sort, userName); err != nil {
		fmt.Fprintf(stderr, "sprio: error: %v\n", err)
		return 1
	}
	pr := printer{w: w, cluster: c.Conf.ClusterName, user: userName}
	io.WriteString(stdout, pr.render(fields, rep.Factors, !o.noHeader, o.weights))
	return 0
}

// userName is uid_to_string_cached: the user's name, or the uid as a number.
func userName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := userdb.LookupId(id); err == nil {
		return u.Username
	}
	return id
}
