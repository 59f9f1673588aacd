package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

type action int

const (
	actList action = iota
	actHelp
	actHelpFormat
	actUsage
)

// params is one sacct invocation's options (Slurm's sacct_parameters_t and job condition,
// the part Orbit honours).
type params struct {
	action    action
	req       wire.AcctQueryRequest
	allUsers  bool
	startSet  bool
	endSet    bool
	long      bool
	brief     bool
	fieldList string // -o values, each followed by ","
	noHeader  bool
	parsable  format.SacctParsable
	delimiter string
	json      bool
	yaml      bool
	qosNames  string // -q as given, checked against the QOS list after the storage check
	qosSet    bool
	// completion is -c: job completion data (JobCompType) instead of accounting.
	completion bool
	truncate   bool // -T: times cut to the window
	verbose    int  // -v count
	nodesArg   string
	operands   []string // checked after the storage and the fields, as in Slurm
	// clusters is -M's names (Slurm's job_cond cluster_list), nil for the local cluster;
	// allClusters is -M all or -L. The store holds the local cluster's jobs only, so a
	// list without its name selects none, as slurmdbd answers for clusters it has no jobs of.
	clusters    []string
	allClusters bool
}

// coversCluster says whether -M/-L select the cluster named name (slurm.conf's ClusterName).
// Slurm lower-cases both the names given and ClusterName.
func (p *params) coversCluster(name string) bool {
	if p.allClusters || p.clusters == nil {
		return true
	}
	for _, c := range p.clusters {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

var opts = []cmdclient.Opt{
	{Long: "allusers", Short: 'a'},
	{Long: "accounts", Short: 'A', Arg: cmdclient.RequiredArg},
	{Long: "allocations", Short: 'X'},
	{Long: "brief", Short: 'b'},
	{Long: "batch-script", Short: 'B'},
	{Long: "completion", Short: 'c'},
	{Long: "constraints", Short: 'C', Arg: cmdclient.RequiredArg},
	{Long: "delimiter", Arg: cmdclient.RequiredArg},
	{Long: "duplicates", Short: 'D'},
	{Long: "federation"},
	{Long: "helpformat", Short: 'e'},
	{Long: "help-fields"},
	{Long: "endtime", Short: 'E', Arg: cmdclient.RequiredArg},
	{Long: "env-vars"},
	{Long: "file", Short: 'f', Arg: cmdclient.RequiredArg},
	{Long: "flags", Short: 'F', Arg: cmdclient.RequiredArg},
	{Long: "gid", Short: 'g', Arg: cmdclient.RequiredArg},
	{Long: "group", Arg: cmdclient.RequiredArg},
	{Long: "help", Short: 'h'},
	{Long: "local"},
	{Long: "name", Arg: cmdclient.RequiredArg},
	{Long: "nnodes", Short: 'i', Arg: cmdclient.RequiredArg},
	{Long: "ncpus", Short: 'I', Arg: cmdclient.RequiredArg},
	{Long: "jobs", Short: 'j', Arg: cmdclient.RequiredArg},
	{Long: "timelimit-min", Short: 'k', Arg: cmdclient.RequiredArg},
	{Long: "timelimit-max", Short: 'K', Arg: cmdclient.RequiredArg},
	{Long: "long", Short: 'l'},
	{Long: "allclusters", Short: 'L'},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "clusters", Arg: cmdclient.RequiredArg},
	{Long: "nodelist", Short: 'N', Arg: cmdclient.RequiredArg},
	{Long: "noconvert"},
	{Long: "units", Arg: cmdclient.RequiredArg},
	{Long: "noheader", Short: 'n'},
	{Long: "fields", Arg: cmdclient.RequiredArg},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "parsable", Short: 'p'},
	{Long: "parsable2", Short: 'P'},
	{Long: "qos", Short: 'q', Arg: cmdclient.RequiredArg},
	{Long: "partition", Short: 'r', Arg: cmdclient.RequiredArg},
	{Long: "reason", Short: 'R', Arg: cmdclient.RequiredArg},
	{Long: "state", Short: 's', Arg: cmdclient.RequiredArg},
	{Long: "starttime", Short: 'S', Arg: cmdclient.RequiredArg},
	{Long: "truncate", Short: 'T'},
	{Long: "uid", Short: 'u', Arg: cmdclient.RequiredArg},
	{Long: "use-local-uid"},
	{Long: "usage", Short: 'U'},
	{Long: "user", Arg: cmdclient.RequiredArg},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "wckeys", Short: 'W', Arg: cmdclient.RequiredArg},
	{Long: "whole-hetjob", Arg: cmdclient.OptionalArg},
	{Long: "associations", Short: 'x', Arg: cmdclient.RequiredArg},
	{Long: "json", Arg: cmdclient.OptionalArg},
	{Long: "yaml", Arg: cmdclient.OptionalArg},
	{Short: 't'},
}

// exitError is an error already worded as sacct prints it, with its exit status.
type exitError struct {
	text string
	code int
}

func (e *exitError) Error() string { return e.text }

func fatalf(f string, a ...any) error {
	return &exitError{text: "sacct: fatal: " + fmt.Sprintf(f, a...), code: 1}
}

func errorf(f string, a ...any) error {
	return &exitError{text: "sacct: error: " + fmt.Sprintf(f, a...), code: 1}
}

// parseArgs parses the command line in Slurm's order: every option as it comes (bad
// times, states, jobs and users fail at once; -V prints and exits), then the cross-option
// checks and the default time window. Fields are parsed later (parseFields), after the
// storage check, as in Slurm. version is true after -V.
func parseArgs(argv []string, now time.Time, uid uint32) (p *params, version bool, err error) {
	p = &params{}
	prog := "sacct"
	if len(argv) > 0 {
		prog = argv[0]
	}
	found, operands, gerr := cmdclient.Getopt(prog, argv[1:], opts)
	for _, f := range found {
		switch name := optName(f.Opt); name {
		case "allusers":
			p.allUsers = true
		case "allocations", "t":
			p.req.NoSteps = true
		case "brief":
			p.brief = true
		case "delimiter":
			p.delimiter = f.Value
		case "helpformat", "help-fields":
			p.action = actHelpFormat
		case "help":
			p.action = actHelp
		case "usage":
			p.action = actUsage
		case "version":
			return p, true, nil
		case "endtime", "starttime":
			t, err := slurmtime.ParseTimePast(f.Value, now)
			if err != nil {
				return nil, false, &exitError{text: err.Error(), code: 1}
			}
			if name == "endtime" {
				p.req.End, p.endSet = unixOrZero(t), true
			} else {
				p.req.Start, p.startSet = unixOrZero(t), true
			}
		case "jobs":
			sels, err := parseJobs(f.Value)
			if err != nil {
				return nil, false, err
			}
			p.req.Jobs = append(p.req.Jobs, sels...)
		case "long":
			p.long = true
		case "name":
			p.req.Names = append(p.req.Names, splitList(f.Value)...)
		case "noheader":
			p.noHeader = true
		case "nodelist":
			if p.nodesArg != "" {
				fmt.Fprintf(os.Stderr, "sacct: error: Already asked for nodes '%s'\n", p.nodesArg)
				continue
			}
			p.nodesArg = f.Value
		case "format", "fields":
			p.fieldList += f.Value + ","
		case "parsable":
			p.parsable = format.SacctParsableEnding
		case "parsable2":
			p.parsable = format.SacctParsableNoEnding
		case "partition":
			p.req.Partitions = append(p.req.Partitions, splitList(f.Value)...)
		case "state":
			for _, s := range splitList(f.Value) {
				st, ok := states.ParseJobState(s)
				if !ok {
					return nil, false, fatalf("unrecognized job state value '%s'", s)
				}
				if st != st.Base() && st != states.JobRequeue && st != states.JobResizing && st != states.JobRevoked {
					return nil, false, fatalf("job state %s is not supported / accounted", s)
				}
				p.req.States = appendUnique(p.req.States, uint32(st))
			}
		case "uid", "user":
			if f.Value == "-1" {
				p.allUsers = true
				continue
			}
			p.allUsers = false
			for _, name := range splitList(f.Value) {
				id, ok := lookupUser(name)
				if !ok {
					return nil, false, errorf("Invalid user id: %s", name)
				}
				p.req.Users = append(p.req.Users, id)
			}
		case "json":
			p.json = true
		case "yaml":
			p.yaml = true
		case "accounts":
			p.req.Accounts = appendStrings(p.req.Accounts, f.Value)
		case "wckeys":
			p.req.WCKeys = appendStrings(p.req.WCKeys, f.Value)
		case "qos":
			// Resolved against the QOS list after the storage check, as Slurm does.
			p.qosNames, p.qosSet = f.Value, true
		case "gid", "group":
			gids, err := parseGroups(f.Value)
			if err != nil {
				return nil, false, err
			}
			p.req.Groups = gids
		case "nnodes", "ncpus":
			what, lo, hi := "requested node range", &p.req.NodesMin, &p.req.NodesMax
			if name == "ncpus" {
				what, lo, hi = "requested cpu range", &p.req.CPUsMin, &p.req.CPUsMax
			}
			if err := parseRange(f.Value, what, lo, hi); err != nil {
				return nil, false, err
			}
		case "timelimit-min", "timelimit-max":
			m, err := slurmtime.ParseTimeLimit(f.Value)
			if (err != nil || int32(m) <= 0) && m != slurmtime.Infinite {
				return nil, false, fatalf("Invalid time limit specification")
			}
			if name == "timelimit-min" {
				p.req.TimeMin = m
			} else {
				p.req.TimeMax = m
			}
		case "completion":
			p.completion = true
		case "batch-script":
			p.req.Script, p.req.NoSteps = true, true
		case "env-vars":
			p.req.Env, p.req.NoSteps = true, true
		case "duplicates":
			p.req.Duplicates = true
		case "truncate":
			p.truncate = true
		case "verbose":
			p.verbose++
		case "cluster", "clusters":
			if strings.EqualFold(f.Value, "all") || f.Value == "-1" { // -1: Slurm's vestigial spelling
				p.allClusters = true
				break
			}
			p.allClusters = false
			for _, n := range strings.Split(f.Value, ",") {
				if n != "" {
					p.clusters = append(p.clusters, n)
				}
			}
		case "allclusters":
			p.allClusters = true
		case "local", "federation":
			p.allClusters = false // and nothing else: one cluster, no federation
		case "noconvert":
			// Nothing to do: no unit conversion.
		default:
			return nil, false, errorf("option --%s is not supported by Orbit yet", name)
		}
	}
	if gerr != nil {
		// getopt has explained it (the message is getopt's, naming argv[0]).
		return nil, false, &exitError{text: gerr.Error(), code: 1}
	}
	if len(p.req.Jobs) == 0 {
		switch {
		case p.req.Env:
			return nil, false, fatalf("When requesting job environment you must also request specific jobs with the '-j' option.")
		case p.req.Script:
			return nil, false, fatalf("When requesting job scripts you must also request specific jobs with the '-j' option.")
		}
	}
	if p.req.Script && p.req.Env {
		return nil, false, fatalf("Options --batch-script and --env-vars are mutually exclusive")
	}
	if p.long && p.fieldList != "" {
		return nil, false, fatalf("Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.")
	}
	p.defaultWindow(now)
	if p.req.End != 0 && p.req.Start > p.req.End {
		return nil, false, errorf("Start time (%s) requested is after end time (%s).",
			slurmtime.FormatUnix(p.req.Start, time.Local), slurmtime.FormatUnix(p.req.End, time.Local))
	}
	p.operands = operands
	if p.nodesArg != "" {
		nodes, err := hostlist.Expand(p.nodesArg)
		if err != nil {
			return nil, false, errorf("Invalid node list: %s", p.nodesArg)
		}
		p.req.Nodes = nodes
	}
	// Jobs or nodes named: every user's; root: every user's by default.
	if len(p.req.Users) == 0 && (len(p.req.Jobs) > 0 || p.nodesArg != "" || uid == 0) {
		p.allUsers = true
	}
	switch {
	case p.allUsers:
		p.req.Users = nil
	case len(p.req.Users) == 0:
		p.req.Users = []uint32{uid}
	}
	return p, false, nil
}

// defaultWindow applies slurmdb_job_cond_def_start_end: with -s and no -j the window
// defaults to the instant now; without -s nor -j it starts at midnight today; it ends now.
// The window is [Start, End), so an end equal to the start or to now is moved one second on.
func (p *params) defaultWindow(now time.Time) {
	n := now.Unix()
	switch {
	case len(p.req.States) > 0:
		if p.req.Start == 0 && len(p.req.Jobs) == 0 {
			p.req.Start = n
		}
		if p.req.Start != 0 && p.req.End == 0 {
			p.req.End = p.req.Start
		}
	case len(p.req.Jobs) == 0:
		if p.req.Start == 0 {
			y, m, d := now.Date()
			p.req.Start = time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Unix()
		}
	}
	if p.req.End == 0 {
		p.req.End = n
	}
	if p.req.End == p.req.Start || p.req.End == n {
		p.req.End++
	}
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func optName(o *cmdclient.Opt) string {
	if o.Long == "" {
		return string(o.Short)
	}
	return o.Long
}

func appendUnique(list []uint32, v uint32) []uint32 {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// parseJobs parses a -j list: job ids, array tasks ("12_3") and steps ("12.0", "12.batch",
// "12_3.extern"), comma or space separated. A bad entry is sacct's fatal error.
func parseJobs(list string) ([]wire.AcctJobSel, error) {
	var out []wire.AcctJobSel
	for _, it := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		sel, ok := parseJobSel(it)
		if !ok {
			// Slurm names the whole entry for a bad job id, but only the part before the
			// dot for a bad step id ("12.x": "Bad step specified: 12").
			if job, _, dot := strings.Cut(it, "."); dot && validJob(job) {
				return nil, fatalf("Bad step specified: %s", job)
			}
			return nil, fatalf("Bad job/step specified: %s", it)
		}
		out = append(out, sel)
	}
	return out, nil
}

func validJob(s string) bool {
	sel, ok := parseJobSel(s)
	return ok && sel.StepID == wire.NoVal
}

func parseJobSel(s string) (wire.AcctJobSel, bool) {
	sel := wire.AcctJobSel{ArrayTask: wire.NoVal, StepID: wire.NoVal}
	job, step, hasStep := strings.Cut(s, ".")
	job, task, hasTask := strings.Cut(job, "_")
	id, err := strconv.ParseUint(job, 10, 32)
	if err != nil || id == 0 {
		return sel, false
	}
	sel.JobID = uint32(id)
	if hasTask {
		t, err := strconv.ParseUint(task, 10, 32)
		if err != nil {
			return sel, false
		}
		sel.ArrayTask = uint32(t)
	}
	if hasStep {
		switch step {
		case "batch":
			sel.StepID = wire.StepBatch
		case "extern":
			sel.StepID = wire.StepExtern
		default:
			n, err := strconv.ParseUint(step, 10, 32)
			if err != nil {
				return sel, false
			}
			sel.StepID = uint32(n)
		}
	}
	return sel, true
}

func splitList(s string) []string {
	var out []string
	for _, it := range strings.Split(s, ",") {
		if it != "" {
			out = append(out, it)
		}
	}
	return out
}

// lookupUser resolves a user name or a numeric uid.
func lookupUser(name string) (uint32, bool) {
	if u, err := userdb.Lookup(name); err == nil {
		if id, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			return uint32(id), true
		}
	}
	if id, err := strconv.ParseUint(name, 10, 32); err == nil {
		if _, err := userdb.LookupId(name); err == nil {
			return uint32(id), true
		}
	}
	return 0, false
}

// fieldList is the --format list as Slurm assembles it: -o values, then -b, then -l, else
// SACCT_FORMAT, else the default.
func (p *params) fields(getenv func(string) (string, bool)) string {
	l := p.fieldList
	if p.brief {
		l += format.SacctBriefFields + ","
	}
	if p.long {
		l += format.SacctLongFields + ","
	}
	if l == "" {
		if v, ok := getenv("SACCT_FORMAT"); ok {
			l = v + ","
		} else {
			l = format.SacctDefaultFields + ","
		}
	}
	return l
}

// operandError is Slurm's complaint about arguments that are not options.
func (p *params) operandError() error {
	if len(p.operands) == 0 {
		return nil
	}
	lines := []string{"sacct: error: Unknown arguments:"}
	for _, o := range p.operands {
		lines = append(lines, "sacct: error:  "+o)
	}
	return &exitError{text: strings.Join(lines, "\n"), code: 1}
}

// appendStrings adds a comma-separated list's names (slurm_addto_char_list: empty items
// dropped, duplicates kept once).
func appendStrings(list []string, v string) []string {
	for _, it := range splitList(v) {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// parseGroups resolves a -g list of group names or gids (slurm_addto_id_char_list); an
// unknown one is Slurm's "Invalid group id" error, exit 1.
func parseGroups(v string) ([]uint32, error) {
	var out []uint32
	for _, name := range splitList(v) {
		id, ok := lookupGroup(name)
		if !ok {
			return nil, errorf("Invalid group id: %s", name)
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, &exitError{code: 1} // Slurm exits 1 without a word for an empty list
	}
	return out, nil
}

func lookupGroup(name string) (uint32, bool) {
	if g, err := userdb.LookupGroup(name); err == nil {
		if id, err := strconv.ParseUint(g.Gid, 10, 32); err == nil {
			return uint32(id), true
		}
	}
	if id, err := strconv.ParseUint(name, 10, 32); err == nil {
		if _, err := userdb.LookupGroupId(name); err == nil {
			return uint32(id), true
		}
	}
	return 0, false
}

// parseRange is get_resource_arg_range for -i and -I: "min[-max]" with optional k/m
// multipliers, "" or "*" for 1 to INT_MAX.
func parseRange(arg, what string, lo, hi *uint32) error {
	// isFatal: the first message ends sacct, so its own "invalid node range" line never
	// prints.
	bad := func() error {
		return &exitError{text: fmt.Sprintf("sacct: error: Invalid numeric value \"%s\" for %s.", arg, what), code: 1}
	}
	if arg == "" || arg[0] == '*' {
		*lo, *hi = 1, math.MaxInt32
		return nil
	}
	n, rest, ok := strtol(arg)
	if !ok || (rest != "" && rest[0] != '-') || n < 0 {
		return bad()
	}
	if n > math.MaxInt32 {
		return &exitError{text: fmt.Sprintf("sacct: error: Numeric argument (%d) to big for %s.", n, what), code: 1}
	}
	*lo = uint32(n)
	if rest == "" {
		return nil
	}
	m, rest, ok := strtol(rest[1:])
	if !ok || (rest != "" && rest[0] != '-') || m <= 0 {
		return bad()
	}
	if m > math.MaxInt32 {
		return &exitError{text: fmt.Sprintf("sacct: error: Numeric argument (%d) to big for %s.", m, what), code: 1}
	}
	*hi = uint32(m)
	return nil
}

// strtol reads a base-10 number as C's strtol (leading blanks and a sign allowed, no digits
// = 0 with nothing consumed) followed by an optional k/K (×1024) or m/M (×1048576). ok is
// false only when the value overflows int64.
func strtol(s string) (n int64, rest string, ok bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j {
		return 0, s, true
	}
	n, err := strconv.ParseInt(s[i:k], 10, 64)
	if err != nil {
		return 0, "", false
	}
	rest = s[k:]
	if rest != "" {
		switch rest[0] {
		case 'k', 'K':
			n, rest = n*1024, rest[1:]
		case 'm', 'M':
			n, rest = n*1048576, rest[1:]
		}
	}
	return n, rest, true
}

// knownQOS is the QOS list a fresh Slurm database holds, and all Orbit has before
// associations: "normal".
var knownQOS = []string{"normal"}

// resolveQOS is slurmdb_addto_qos_char_list against the QOS list: "" selects jobs without a
// QOS; an unknown name is Slurm's error, then its fatal.
func (p *params) resolveQOS() error {
	if p.qosNames == "" {
		p.req.QOS = []string{""}
		return nil
	}
	for _, name := range splitList(p.qosNames) {
		i := slices.IndexFunc(knownQOS, func(q string) bool { return strings.EqualFold(q, name) })
		if i < 0 {
			return &exitError{code: 1, text: fmt.Sprintf("sacct: error: You gave a bad qos '%s'. Valid QOS's are %s\nsacct: fatal: problem processing qos list",
				name, strings.Join(knownQOS, ","))}
		}
		if !slices.Contains(p.req.QOS, knownQOS[i]) {
			p.req.QOS = append(p.req.QOS, knownQOS[i])
		}
	}
	if len(p.req.QOS) == 0 {
		return &exitError{code: 1, text: "sacct: error: You gave me an empty qos list\nsacct: fatal: problem processing qos list"}
	}
	return nil
}

// windowInfo is what -v prints once the window is known: the states (or "Eligible") and the
// window's ends in slurm_ctime2_r's form, Epoch 0 for no start.
func (p *params) windowInfo() string {
	what := "Eligible"
	if len(p.req.States) > 0 {
		names := make([]string, len(p.req.States))
		for i, st := range p.req.States {
			names[i] = states.JobState(st).String()
		}
		what = strings.Join(names, ",")
	}
	const layout = "Mon Jan 02 15:04:05 2006"
	from := "Epoch 0"
	if p.req.Start != 0 {
		from = time.Unix(p.req.Start, 0).Format(layout)
	}
	to := time.Unix(p.req.End, 0).Format(layout)
	if from == to {
		return "sacct: Jobs " + what + " at the time instant " + from
	}
	return "sacct: Jobs " + what + " in the time window from " + from + " to " + to
}
