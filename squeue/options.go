package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
)

// params is one squeue invocation's options (Slurm's squeue_parameters_t, the part Orbit
// honours).
type params struct {
	info      cmdclient.Info
	all       bool
	noHeader  bool
	long      bool
	array     bool // -r: one line per array task
	start     bool // --start
	steps     bool // -s
	noConvert bool
	iterate   int      // -i seconds; 0 = once
	jobs      []jobSel // -j; nil = every job
	stepSel   []stepSel
	users     []uint32 // -u / --me; nil = every user
	userSet   bool     // -u was given (even if no name was valid)
	states    []states.JobState
	allState  bool // -t all
	parts     []string
	names     []string
	accounts  []string
	qos       []string
	licenses  []string
	resv      string
	nodes     map[string]bool // -w, expanded (node names once mapNodes has run)
	nodeOrder []string        // -w's names as given, in order
	sort      string
	sortSet   bool
	format    *format.Format[*format.JobRow]
	stepFmt   *format.Format[*format.StepRow]
	verbose   int
	priority  bool              // -P: one row per partition of a pending job (priority.go)
	partTiers map[string]uint32 // -P: each partition's PriorityTier
	shown     shownOptions      // what -v prints of the options (verbose.go)
}

// jobSel is one -j entry: a job id, or one task of an array ("id_task").
type jobSel struct {
	id   uint32
	task uint32 // format.NoVal: the whole job
}

// stepSel is one -s entry: "job.step" or "job_task.step".
type stepSel struct {
	job  jobSel
	step uint32
}

// opts is squeue's getopt_long table in Slurm 22.05's order (the order glibc lists the
// possibilities of an ambiguous prefix in). Names that Slurm maps to the same letter share
// a Val, so their common prefixes are not ambiguous.
var opts = []cmdclient.Opt{
	{Long: "accounts", Short: 'A', Arg: cmdclient.RequiredArg},
	{Long: "all", Short: 'a'},
	{Long: "array", Short: 'r'},
	{Long: "array-unique"},
	{Long: "Format", Short: 'O', Arg: cmdclient.RequiredArg},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "federation"},
	{Long: "help"},
	{Long: "hide"},
	{Long: "iterate", Short: 'i', Arg: cmdclient.RequiredArg},
	{Long: "jobs", Short: 'j', Arg: cmdclient.OptionalArg},
	{Long: "local"},
	{Long: "long", Short: 'l'},
	{Long: "licenses", Short: 'L', Arg: cmdclient.RequiredArg},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "clusters", Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "me"},
	{Long: "name", Short: 'n', Arg: cmdclient.RequiredArg},
	{Long: "noconvert"},
	{Long: "node", Short: 'w', Arg: cmdclient.RequiredArg, Val: "w"},
	{Long: "nodes", Arg: cmdclient.RequiredArg, Val: "w"},
	{Long: "nodelist", Arg: cmdclient.RequiredArg, Val: "w"},
	{Long: "noheader", Short: 'h'},
	{Long: "partitions", Short: 'p', Arg: cmdclient.RequiredArg},
	{Long: "priority", Short: 'P'},
	{Long: "qos", Short: 'q', Arg: cmdclient.RequiredArg},
	{Long: "reservation", Short: 'R', Arg: cmdclient.RequiredArg},
	{Long: "sib", Val: "sib"},
	{Long: "sibling", Val: "sib"},
	{Long: "sort", Short: 'S', Arg: cmdclient.RequiredArg},
	{Long: "start"},
	{Long: "steps", Short: 's', Arg: cmdclient.OptionalArg},
	{Long: "states", Short: 't', Arg: cmdclient.RequiredArg},
	{Long: "usage"},
	{Long: "user", Short: 'u', Arg: cmdclient.RequiredArg, Val: "u"},
	{Long: "users", Arg: cmdclient.RequiredArg, Val: "u"},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "json"},
	{Long: "yaml"},
	{Short: 'U', Arg: cmdclient.RequiredArg}, // -U: Slurm's old spelling of -A
}

// parseArgs parses the command line and the SQUEUE_* environment. code is -1 to go on, or
// the exit status to return at once (after help/usage/version, or an error already printed).
// Messages Slurm prints with printf (usage after a stray operand) go to stdout.
func parseArgs(argv []string, getenv func(string) (string, bool), stdout, stderr io.Writer) (*params, int) {
	p := &params{}
	prog := "squeue"
	if len(argv) > 0 {
		prog = argv[0]
	}
	fail := func(format string, a ...any) (*params, int) {
		fmt.Fprintf(stderr, "squeue: error: "+format+"\n", a...)
		return nil, 1
	}
	if _, ok := getenv("SQUEUE_ALL"); ok {
		p.all = true
	}
	if _, ok := getenv("SQUEUE_ARRAY"); ok {
		p.array = true
	}
	if v, ok := getenv("SQUEUE_SORT"); ok {
		p.sort, p.sortSet = v, true
		p.shown.sort = &v
	}
	if v, ok := getenv("SLURM_CLUSTERS"); ok {
		cmdclient.ClusterUnreachable(stderr, "squeue", v, true)
		return nil, 1
	}
	found, operands, ok := cmdclient.ParseOptions("squeue", prog, argv[1:], opts, stderr)
	if !ok {
		return nil, 1
	}
	var spec, specLong string
	var specSet, specLongSet, overrideEnv, jobFlag bool
	var statesGiven, usersGiven bool
	sh := &p.shown
	for _, f := range found {
		v := f.Value
		name := f.Opt.Long
		if f.Opt.Short == 'U' {
			name = "accounts"
		}
		switch name {
		case "accounts":
			p.accounts = splitList(f.Value)
		case "all":
			p.all = true
		case "hide":
			p.all = false
		case "array":
			p.array = true
		case "federation":
			sh.federation = true
		case "local":
			sh.local = true
		case "sib", "sibling":
			sh.sibling = true
		case "priority":
			p.priority = true
		case "array-unique":
			// One cluster, one partition per job: nothing to change.
		case "Format":
			if specSet {
				return fail("-O (--Format) is incompatible with -o (--format)")
			}
			specLong, specLongSet, overrideEnv = f.Value, true, true
		case "format":
			if specLongSet {
				return fail("-o (--format) is incompatible with -O (--Format)")
			}
			spec, specSet, overrideEnv = f.Value, true, true
			sh.format = &v
		case "help":
			p.info = cmdclient.InfoHelp
			return p, 0
		case "usage":
			p.info = cmdclient.InfoUsage
			return p, 0
		case "version":
			p.info = cmdclient.InfoVersion
			return p, 0
		case "iterate":
			n, _ := strconv.Atoi(atoiPrefix(f.Value))
			if n <= 0 {
				return fail("--iterate=%s\n", f.Value)
			}
			sh.iterate = n
			p.iterate = n
		case "jobs":
			if f.HasValue {
				js, err := parseJobList(f.Value)
				if err != nil {
					return fail("%v", err)
				}
				p.jobs = js
				sh.jobs = &v
			}
			jobFlag = true
		case "long":
			p.long, overrideEnv = true, true
		case "licenses":
			p.licenses, sh.licenses = splitList(f.Value), &v
		case "cluster", "clusters":
			cmdclient.ClusterUnreachable(stderr, "squeue", f.Value, false)
			return nil, 1
		case "me":
			p.userSet, usersGiven = true, true
			p.users = []uint32{uint32(currentUID())}
			me := strconv.Itoa(currentUID())
			sh.users = &me
		case "name":
			p.names, sh.names = splitList(f.Value), &v
		case "noconvert":
			p.noConvert = true
		case "node", "nodes", "nodelist":
			names, err := hostlist.Expand(f.Value)
			if err != nil {
				return fail("'%s' invalid entry for --nodelist", f.Value)
			}
			p.nodes, p.nodeOrder = map[string]bool{}, names
			for _, n := range names {
				p.nodes[n] = true
			}
		case "noheader":
			p.noHeader = true
		case "partitions":
			p.parts, p.all, sh.partitions = splitList(f.Value), true, &v
		case "qos":
			p.qos = splitList(f.Value)
		case "reservation":
			p.resv, sh.reservation = f.Value, &v
		case "sort":
			p.sort, p.sortSet, sh.sort = f.Value, true, &v
		case "start":
			p.start, overrideEnv = true, true
		case "steps":
			if f.HasValue {
				ss, err := parseStepList(f.Value)
				if err != nil {
					return fail("%v", err)
				}
				p.stepSel = ss
				sh.steps = &v
			}
			p.steps, overrideEnv = true, true
		case "states":
			if code := p.setStates(f.Value, stderr); code >= 0 {
				return nil, code
			}
			statesGiven, sh.states = true, &v
		case "user", "users":
			p.setUsers(f.Value, stderr)
			usersGiven, sh.users = true, &v
		case "verbose":
			p.verbose++
		case "json", "yaml":
			return nil, dumpData(name, stdout, stderr) // json.go
		default:
			return fail("option --%s is not supported by Orbit yet", name)
		}
	}
	if p.long && specSet {
		fmt.Fprintf(stderr, "squeue: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1
	}
	if !overrideEnv {
		if v, ok := getenv("SQUEUE_FORMAT"); ok {
			spec, specSet, sh.format = v, true, &v
		} else if v, ok := getenv("SQUEUE_FORMAT2"); ok {
			specLong, specLongSet = v, true
		}
	}
	// An operand is the list of the -j or -s given without one (squeue -j 12,13).
	if len(operands) > 0 {
		switch {
		case jobFlag:
			js, err := parseJobList(operands[0])
			if err != nil {
				return fail("%v", err)
			}
			p.jobs, sh.jobs, operands = js, &operands[0], operands[1:]
		case p.steps:
			ss, err := parseStepList(operands[0])
			if err != nil {
				return fail("%v", err)
			}
			p.stepSel, sh.steps, operands = ss, &operands[0], operands[1:]
		}
		if len(operands) > 0 {
			fmt.Fprintf(stderr, "squeue: error: Unrecognized option: %s\n", operands[0])
			io.WriteString(stdout, usageText)
			return nil, 1
		}
	}
	if jobFlag && p.steps {
		if p.jobs == nil {
			return fail("Incompatible options --jobs and --steps")
		}
		jobFlag = false
	}
	sh.jobFlag = jobFlag
	if p.accounts == nil {
		if v, ok := getenv("SQUEUE_ACCOUNT"); ok {
			p.accounts = splitList(v)
		}
	}
	if p.names == nil {
		if v, ok := getenv("SQUEUE_NAMES"); ok {
			p.names, sh.names = splitList(v), &v
		}
	}
	// Slurm reads SQUEUE_LICENSES only when no partition was given (its test looks at the
	// partitions), and so does Orbit.
	if p.parts == nil {
		if v, ok := getenv("SQUEUE_LICENSES"); ok {
			p.licenses, sh.licenses = splitList(v), &v
		}
		if v, ok := getenv("SQUEUE_PARTITION"); ok {
			p.parts, p.all, sh.partitions = splitList(v), true, &v
		}
	}
	if p.qos == nil {
		if v, ok := getenv("SQUEUE_QOS"); ok {
			p.qos = splitList(v)
		}
	}
	if !statesGiven {
		if v, ok := getenv("SQUEUE_STATES"); ok {
			if code := p.setStates(v, stderr); code >= 0 {
				return nil, code
			}
			statesGiven, sh.states = true, &v
		}
	}
	if !usersGiven {
		if v, ok := getenv("SQUEUE_USERS"); ok {
			p.setUsers(v, stderr)
			sh.users = &v
		}
	}
	if p.start && !p.steps {
		if !specSet && !specLongSet {
			spec, specSet = format.SqueueStart, true
		}
		if sh.format == nil {
			sh.format = new(format.SqueueStart)
		}
		if !p.sortSet {
			p.sort, p.sortSet = "S", true
			sh.sort = new("S")
		}
		if !statesGiven {
			p.states = []states.JobState{states.JobPending}
			sh.states = new("PD")
		}
	}
	var msgs []string
	if p.steps {
		switch {
		case specLongSet:
			p.stepFmt, msgs = format.SqueueStepsTable.ParseLong(specLong)
		case specSet:
			p.stepFmt, msgs = format.SqueueStepsTable.Parse(spec)
		default:
			p.stepFmt, msgs = format.SqueueStepsTable.Parse(format.SqueueSteps)
		}
	} else {
		switch {
		case specLongSet:
			p.format, msgs = format.SqueueJobs.ParseLong(specLong)
		case specSet:
			p.format, msgs = format.SqueueJobs.Parse(spec)
		case p.long:
			p.format, msgs = format.SqueueJobs.ParseLong(format.SqueueLong)
		default:
			p.format, msgs = format.SqueueJobs.ParseLong(format.SqueueDefault)
		}
	}
	for _, m := range msgs {
		fmt.Fprintln(stderr, m)
	}
	if p.format == nil && p.stepFmt == nil {
		return nil, 1
	}
	return p, -1
}

// setStates applies a -t list; code is -1, or 1 after printing Slurm's error.
func (p *params) setStates(v string, stderr io.Writer) int {
	st, all, err := states.ParseJobStateList(v)
	if err != nil {
		var se *states.JobStateListError
		if errors.As(err, &se) {
			for _, l := range se.Lines() {
				fmt.Fprintf(stderr, "squeue: error: %s\n", l)
			}
			return 1
		}
		fmt.Fprintf(stderr, "squeue: error: %v\n", err)
		return 1
	}
	p.states, p.allState = st, all
	return -1
}

// setUsers applies a -u list. A name that is not a user is reported (with Slurm's extra
// newline) and left out; the filter stays on, so no job matches it.
func (p *params) setUsers(v string, stderr io.Writer) {
	p.userSet, p.users = true, nil
	for _, name := range splitList(v) {
		uid, ok := lookupUser(name)
		if !ok {
			fmt.Fprintf(stderr, "squeue: error: Invalid user: %s\n\n", name)
			continue
		}
		p.users = append(p.users, uid)
	}
}

// strtol parses a leading decimal number as C's strtol does: optional sign, digits, and the
// rest returned unparsed. ok is false when there are no digits (strtol then returns 0).
func strtol(s string) (n int64, rest string, ok bool) {
	i, neg := 0, false
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < 1<<40 {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s, false
	}
	if neg {
		n = -n
	}
	return n, s[i:], true
}

// atoiPrefix keeps the leading number of s, as atoi reads it.
func atoiPrefix(s string) string {
	n, _, ok := strtol(s)
	if !ok {
		return "0"
	}
	return strconv.FormatInt(n, 10)
}

// parseJobList parses a -j list as Slurm does: comma-separated job ids, each optionally
// "_task"; anything after the number is ignored (strtol), and an id that is not positive is
// "Invalid job id".
func parseJobList(s string) ([]jobSel, error) {
	out := []jobSel{}
	for _, item := range splitList(s) {
		id, rest, _ := strtol(item)
		sel := jobSel{id: uint32(id), task: format.NoVal}
		if strings.HasPrefix(rest, "_") {
			t, _, _ := strtol(rest[1:])
			sel.task = uint32(t)
		}
		if id <= 0 || id >= int64(format.NoVal) {
			return nil, fmt.Errorf("Invalid job id: %s", item)
		}
		out = append(out, sel)
	}
	return out, nil
}

// parseStepList parses a -s list: comma-separated "job.step" or "job_task.step".
func parseStepList(s string) ([]stepSel, error) {
	out := []stepSel{}
	for _, item := range splitList(s) {
		parts := splitOn(item, '.')
		if len(parts) == 0 {
			break
		}
		jobName := parts[0]
		id, rest, _ := strtol(jobName)
		sel := stepSel{job: jobSel{id: uint32(id), task: format.NoVal}}
		if strings.HasPrefix(rest, "_") {
			t, _, _ := strtol(rest[1:])
			sel.job.task = uint32(t)
		}
		if len(parts) < 2 {
			return nil, fmt.Errorf("Invalid job_step id: %s.??", jobName)
		}
		step, _, _ := strtol(parts[1])
		if id <= 0 || step < 0 || id >= int64(format.NoVal) {
			return nil, fmt.Errorf("Invalid job_step id: %s.%s", jobName, parts[1])
		}
		sel.step = uint32(step)
		out = append(out, sel)
	}
	return out, nil
}

// splitOn splits as strtok does: empty fields are skipped.
func splitOn(s string, sep byte) []string {
	var out []string
	for _, it := range strings.Split(s, string(sep)) {
		if it != "" {
			out = append(out, it)
		}
	}
	return out
}

// splitList splits a comma-separated list, skipping empty items as strtok does.
func splitList(s string) []string { return splitOn(s, ',') }

// lookupUser is uid_from_string (userdb.UIDFromString): a number must name an existing
// user too (Slurm 22.05's `squeue -u 987654` says "Invalid user: 987654").
func lookupUser(name string) (uint32, bool) { return userdb.UIDFromString(name) }
