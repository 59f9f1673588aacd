package main

import (
	"bufio"
	"fmt"
	"strconv"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// shownOptions are the option values `squeue -v` prints as they were given (on the command
// line or in SQUEUE_*), nil where Slurm's field stays NULL and prints "(null)".
type shownOptions struct {
	format, jobs, licenses, names, partitions, reservation *string
	sort, states, steps, users                             *string
	federation, local, sibling                             bool
	jobFlag                                                bool
	iterate                                                int
}

// printOptions is Slurm's _print_options: the block squeue -v prints to stdout once its
// options are read (and -w's names mapped to nodes), with the parsed lists from -vv on.
func printOptions(w *bufio.Writer, p *params) {
	sh := &p.shown
	str := func(s *string) string {
		if s == nil {
			return "(null)"
		}
		return *s
	}
	tf := func(b bool) string {
		if b {
			return "true"
		}
		return "false"
	}
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	nodes := ""
	if p.nodes != nil {
		names := make([]string, 0, len(p.nodes))
		for n := range p.nodes {
			names = append(names, n)
		}
		nodes = hostlist.Compress(names)
	}
	w.WriteString("-----------------------------\n")
	fmt.Fprintf(w, "all         = %s\n", tf(p.all))
	fmt.Fprintf(w, "array       = %s\n", tf(p.array))
	fmt.Fprintf(w, "federation  = %s\n", tf(sh.federation))
	fmt.Fprintf(w, "format      = %s\n", str(sh.format))
	fmt.Fprintf(w, "iterate     = %d\n", sh.iterate)
	fmt.Fprintf(w, "job_flag    = %d\n", flag(sh.jobFlag))
	fmt.Fprintf(w, "jobs        = %s\n", str(sh.jobs))
	fmt.Fprintf(w, "licenses    = %s\n", str(sh.licenses))
	fmt.Fprintf(w, "local       = %s\n", tf(sh.local))
	fmt.Fprintf(w, "names       = %s\n", str(sh.names))
	fmt.Fprintf(w, "nodes       = %s\n", nodes)
	fmt.Fprintf(w, "partitions  = %s\n", str(sh.partitions))
	fmt.Fprintf(w, "priority    = %s\n", tf(p.priority))
	fmt.Fprintf(w, "reservation = %s\n", str(sh.reservation))
	// Slurm's own misaligned line.
	fmt.Fprintf(w, "sibling      = %s\n", tf(sh.sibling))
	fmt.Fprintf(w, "sort        = %s\n", str(sh.sort))
	fmt.Fprintf(w, "start_flag  = %d\n", flag(p.start))
	fmt.Fprintf(w, "states      = %s\n", str(sh.states))
	fmt.Fprintf(w, "step_flag   = %d\n", flag(p.steps))
	fmt.Fprintf(w, "steps       = %s\n", str(sh.steps))
	fmt.Fprintf(w, "users       = %s\n", str(sh.users))
	fmt.Fprintf(w, "verbose     = %d\n", p.verbose)
	if p.verbose > 1 {
		printOptionLists(w, p)
	}
	w.WriteString("-----------------------------\n\n\n")
}

// printOptionLists is the -vv part of _print_options: each list as squeue parsed it.
func printOptionLists(w *bufio.Writer, p *params) {
	for i, s := range p.jobs {
		if s.task == format.NoVal {
			fmt.Fprintf(w, "job_list[%d] = %d\n", i, s.id)
		} else {
			fmt.Fprintf(w, "job_list[%d] = %d_%d\n", i, s.id, s.task)
		}
	}
	// Slurm prints each name's first character as a number (%u of a char).
	for i, n := range p.names {
		fmt.Fprintf(w, "name_list[%d] = %d\n", i, n[0])
	}
	for i, l := range p.licenses {
		fmt.Fprintf(w, "licenses_list[%d] = %s\n", i, l)
	}
	for i, part := range p.parts {
		fmt.Fprintf(w, "part_list[%d] = %s\n", i, part)
	}
	if p.allState {
		w.WriteString("state_list = all\n")
	} else {
		for i, s := range p.states {
			fmt.Fprintf(w, "state_list[%d] = %s\n", i, s.String())
		}
	}
	for i, s := range p.stepSel {
		job := strconv.FormatUint(uint64(s.job.id), 10)
		if s.job.task != format.NoVal {
			job += "_" + strconv.FormatUint(uint64(s.job.task), 10)
		}
		// "+0": Slurm's parsed step ids carry heterogeneous component 0, which it prints.
		fmt.Fprintf(w, "step_list[%d] = %s.%s+0\n", i, job, format.StepName(s.step))
	}
	for i, u := range p.users {
		fmt.Fprintf(w, "user_list[%d] = %d\n", i, u)
	}
}

// pluginLines is what squeue -v logs as it loads its plugins for its first listing: the
// authentication and hash plugins' debug lines (from -vv) as it asks (loaded false), then,
// once the jobs came (loaded true), the node selection plugins, which only a listing of all
// jobs or of one job loads (not a single user's, nor steps). With -w the plugins were loaded
// to map the names, before -v raised the log level, so nothing is logged.
func pluginLines(c *cmdclient.Client, p *params, loaded bool) string {
	switch {
	case p.nodes != nil:
		return ""
	case !loaded:
		if p.verbose > 1 {
			return cmdclient.PluginDebugLines("squeue", c.Conf.AuthType)
		}
		return ""
	}
	singleUser := p.userSet && len(p.users) == 1 && p.users[0] != 0 && len(p.jobs) != 1
	if p.steps || singleUser {
		return ""
	}
	return cmdclient.SelectPluginLines("squeue", c.Conf)
}
