package main

import (
	"errors"
	"fmt"
	"io"
	"os/user"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

type action int

const (
	actList action = iota
	actHelp
	actUsage
	actVersion
)

// params is one squeue invocation's options (Slurm's squeue_parameters_t, the part Orbit
// honours).
type params struct {
	action   action
	all      bool
	noHeader bool
	long     bool
	jobs     []jobSel // -j; nil = every job
	users    []uint32 // -u / --me; nil = every user
	userSet  bool     // -u was given (even if no name was valid)
	states   []states.JobState
	allState bool // -t all
	parts    []string
	names    []string
	sort     string
	format   *format.Format[*format.JobRow]
}

// jobSel is one -j entry: a job id, or one task of an array ("id_task").
type jobSel struct {
	id   uint32
	task uint32 // format.NoVal: the whole job
}

var opts = []cmdclient.Opt{
	{Long: "accounts", Short: 'A', Arg: cmdclient.RequiredArg},
	{Long: "all", Short: 'a'},
	{Long: "array", Short: 'r'},
	{Long: "array-unique"},
	{Long: "clusters", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "federation"},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "Format", Short: 'O', Arg: cmdclient.RequiredArg},
	{Long: "help"},
	{Long: "hide"},
	{Long: "iterate", Short: 'i', Arg: cmdclient.RequiredArg},
	{Long: "jobs", Short: 'j', Arg: cmdclient.OptionalArg},
	{Long: "json", Arg: cmdclient.OptionalArg},
	{Long: "licenses", Short: 'L', Arg: cmdclient.RequiredArg},
	{Long: "local"},
	{Long: "long", Short: 'l'},
	{Long: "me"},
	{Long: "name", Short: 'n', Arg: cmdclient.RequiredArg},
	{Long: "noconvert"},
	{Long: "noheader", Short: 'h'},
	{Long: "nodelist", Short: 'w', Arg: cmdclient.RequiredArg},
	{Long: "only-job-state"},
	{Long: "partition", Short: 'p', Arg: cmdclient.RequiredArg},
	{Long: "qos", Short: 'q', Arg: cmdclient.RequiredArg},
	{Long: "reservation", Short: 'R', Arg: cmdclient.RequiredArg},
	{Long: "sibling"},
	{Long: "sort", Short: 'S', Arg: cmdclient.RequiredArg},
	{Long: "start"},
	{Long: "steps", Short: 's', Arg: cmdclient.OptionalArg},
	{Long: "states", Short: 't', Arg: cmdclient.RequiredArg},
	{Long: "usage"},
	{Long: "user", Short: 'u', Arg: cmdclient.RequiredArg},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "yaml", Arg: cmdclient.OptionalArg},
}

// parseArgs parses the command line and the SQUEUE_* environment. code is -1 to go on, or
// the exit status to return at once (after help/usage/version, or an error already printed).
func parseArgs(argv []string, getenv func(string) (string, bool), stderr io.Writer) (*params, int) {
	p := &params{}
	prog := "squeue"
	if len(argv) > 0 {
		prog = argv[0]
	}
	found, operands, err := cmdclient.Getopt(prog, argv[1:], opts)
	if err != nil {
		fmt.Fprintf(stderr, "%v\nTry \"squeue --help\" for more information\n", err)
		return nil, 1
	}
	var spec string
	specLong, specSet := false, false
	if v, long, ok := format.SqueueFormatFromEnv(getenv); ok {
		spec, specLong, specSet = v, long, true
	}
	if v, ok := getenv("SQUEUE_SORT"); ok {
		p.sort = v
	}
	fail := func(format string, a ...any) (*params, int) {
		fmt.Fprintf(stderr, "squeue: error: "+format+"\n", a...)
		return nil, 1
	}
	if v, ok := getenv("SQUEUE_STATES"); ok {
		found = append([]cmdclient.Found{{Opt: &cmdclient.Opt{Long: "states"}, Value: v, HasValue: true}}, found...)
	}
	for _, f := range found {
		switch f.Opt.Long {
		case "all":
			p.all = true
		case "format":
			spec, specLong, specSet = f.Value, false, true
		case "Format":
			spec, specLong, specSet = f.Value, true, true
		case "help":
			p.action = actHelp
			return p, 0
		case "usage":
			p.action = actUsage
			return p, 0
		case "version":
			p.action = actVersion
			return p, 0
		case "jobs":
			if !f.HasValue {
				continue // -j alone: Slurm then expects the list as an operand
			}
			js, err := parseJobList(f.Value)
			if err != nil {
				return fail("%v", err)
			}
			p.jobs = append(p.jobs, js...)
		case "long":
			p.long = true
		case "me":
			p.userSet = true
			p.users = append(p.users, uint32(currentUID()))
		case "name":
			p.names = append(p.names, splitList(f.Value)...)
		case "noheader":
			p.noHeader = true
		case "partition":
			p.parts = append(p.parts, splitList(f.Value)...)
		case "sort":
			p.sort = f.Value
		case "states":
			st, all, err := states.ParseJobStateList(f.Value)
			if err != nil {
				var se *states.JobStateListError
				if errors.As(err, &se) {
					for _, l := range se.Lines() {
						fmt.Fprintf(stderr, "squeue: error: %s\n", l)
					}
					return nil, 1
				}
				return fail("%v", err)
			}
			p.states, p.allState = append(p.states, st...), p.allState || all
		case "user":
			p.userSet = true
			for _, name := range splitList(f.Value) {
				uid, ok := lookupUser(name)
				if !ok {
					fmt.Fprintf(stderr, "squeue: error: Invalid user: %s\n\n", name)
					continue
				}
				p.users = append(p.users, uid)
			}
		case "verbose":
		default:
			return fail("option --%s is not supported by Orbit yet", f.Opt.Long)
		}
	}
	// Slurm takes a job list given as an operand after -j (squeue -j 12,13).
	for _, op := range operands {
		js, err := parseJobList(op)
		if err != nil {
			return fail("%v", err)
		}
		p.jobs = append(p.jobs, js...)
	}
	var msgs []string
	switch {
	case specSet && specLong:
		p.format, msgs = format.SqueueJobs.ParseLong(spec)
	case specSet:
		p.format, msgs = format.SqueueJobs.Parse(spec)
	case p.long:
		p.format, msgs = format.SqueueJobs.ParseLong(format.SqueueLong)
	default:
		p.format, msgs = format.SqueueJobs.ParseLong(format.SqueueDefault)
	}
	for _, m := range msgs {
		fmt.Fprintln(stderr, m)
	}
	return p, -1
}

// parseJobList parses a -j list: comma-separated job ids, each optionally "_task".
func parseJobList(s string) ([]jobSel, error) {
	var out []jobSel
	for _, item := range splitList(s) {
		idStr, taskStr, hasTask := strings.Cut(item, "_")
		id, err := strconv.ParseUint(idStr, 10, 32)
		if err != nil || id == 0 {
			return nil, fmt.Errorf("Invalid job id: %s", item)
		}
		sel := jobSel{id: uint32(id), task: format.NoVal}
		if hasTask {
			t, err := strconv.ParseUint(taskStr, 10, 32)
			if err != nil || t >= uint64(format.NoVal) {
				return nil, fmt.Errorf("Invalid job id: %s", item)
			}
			sel.task = uint32(t)
		}
		out = append(out, sel)
	}
	return out, nil
}

// splitList splits a comma-separated list, skipping empty items as strtok does.
func splitList(s string) []string {
	var out []string
	for _, it := range strings.Split(s, ",") {
		if it != "" {
			out = append(out, it)
		}
	}
	return out
}

// lookupUser resolves a user name, or a numeric uid, as Slurm's uid_from_string does.
func lookupUser(name string) (uint32, bool) {
	if u, err := user.Lookup(name); err == nil {
		if id, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			return uint32(id), true
		}
	}
	if id, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(id), true
	}
	return 0, false
}
