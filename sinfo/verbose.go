package main

import (
	"fmt"
	"io"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// printOptions prints the parameters as `sinfo -v` does (Slurm's _print_options), before
// anything else.
func printOptions(w io.Writer, p *params) {
	tf := func(b bool) string {
		if b {
			return "true"
		}
		return "false"
	}
	orNull := func(s string, set bool) string {
		if !set {
			return "(null)"
		}
		return s
	}
	orNA := func(s string) string {
		if s == "" {
			return "n/a"
		}
		return s
	}
	nodes := p.nodes
	if hl, err := hostlist.Parse(nodes); err == nil && nodes != "" && hl.Count() == 1 {
		// Slurm keeps a single host in its plain form.
		nodes, _ = hl.Nth(0)
	}
	exact := 0
	if p.exact {
		exact = 1
	}
	f := &p.flags
	fmt.Fprintf(w, "-----------------------------\n")
	fmt.Fprintf(w, "dead        = %s\n", tf(p.dead))
	fmt.Fprintf(w, "exact       = %d\n", exact)
	fmt.Fprintf(w, "filtering   = %s\n", tf(p.filtering))
	fmt.Fprintf(w, "format      = %s\n", p.formatText)
	fmt.Fprintf(w, "iterate     = %d\n", p.iterate)
	fmt.Fprintf(w, "long        = %s\n", tf(p.long))
	fmt.Fprintf(w, "no_header   = %s\n", tf(p.noHeader))
	fmt.Fprintf(w, "node_field  = %s\n", tf(p.nodeField))
	fmt.Fprintf(w, "node_format = %s\n", tf(p.nodeView))
	fmt.Fprintf(w, "nodes       = %s\n", orNA(nodes))
	fmt.Fprintf(w, "part_field  = %s\n", tf(p.partField))
	fmt.Fprintf(w, "partition   = %s\n", orNA(p.partition))
	fmt.Fprintf(w, "responding  = %s\n", tf(p.responded))
	fmt.Fprintf(w, "states      = %s\n", orNull(p.stateText, p.stateSet))
	fmt.Fprintf(w, "sort        = %s\n", orNull(p.sort, p.sortSet))
	fmt.Fprintf(w, "summarize   = %s\n", tf(p.summarize))
	fmt.Fprintf(w, "verbose     = %d\n", p.verbose)
	fmt.Fprintf(w, "-----------------------------\n")
	fmt.Fprintf(w, "all_flag        = %s\n", tf(p.all))
	fmt.Fprintf(w, "alloc_mem_flag  = %s\n", tf(f.allocMem))
	fmt.Fprintf(w, "avail_flag      = %s\n", tf(f.avail))
	fmt.Fprintf(w, "comment_flag    = %s\n", tf(f.comment))
	fmt.Fprintf(w, "cpus_flag       = %s\n", tf(f.cpus))
	fmt.Fprintf(w, "default_time_flag =%s\n", tf(f.defaultTime))
	fmt.Fprintf(w, "disk_flag       = %s\n", tf(f.disk))
	fmt.Fprintf(w, "extra_flag      = %s\n", tf(f.extra))
	fmt.Fprintf(w, "features_flag   = %s\n", tf(f.features))
	fmt.Fprintf(w, "features_flag_act = %s\n", tf(f.featuresAct))
	fmt.Fprintf(w, "groups_flag     = %s\n", tf(f.groups))
	fmt.Fprintf(w, "gres_flag       = %s\n", tf(f.gres))
	fmt.Fprintf(w, "gres_used_flag  = %s\n", tf(f.gresUsed))
	fmt.Fprintf(w, "job_size_flag   = %s\n", tf(f.jobSize))
	fmt.Fprintf(w, "max_time_flag   = %s\n", tf(f.maxTime))
	fmt.Fprintf(w, "memory_flag     = %s\n", tf(f.memory))
	fmt.Fprintf(w, "partition_flag  = %s\n", tf(f.partition))
	fmt.Fprintf(w, "port_flag       = %s\n", tf(f.port))
	fmt.Fprintf(w, "priority_job_factor_flag   = %s\n", tf(f.prioJobFactor))
	fmt.Fprintf(w, "priority_tier_flag   = %s\n", tf(f.prioTier))
	fmt.Fprintf(w, "reason_flag     = %s\n", tf(f.reason))
	fmt.Fprintf(w, "reason_timestamp_flag = %s\n", tf(f.reasonTime))
	fmt.Fprintf(w, "reason_user_flag = %s\n", tf(f.reasonUser))
	fmt.Fprintf(w, "reservation_flag = %s\n", tf(p.action == actReservations))
	fmt.Fprintf(w, "root_flag       = %s\n", tf(f.root))
	fmt.Fprintf(w, "oversubscribe_flag      = %s\n", tf(f.oversubscribe))
	fmt.Fprintf(w, "state_flag      = %s\n", tf(f.state))
	fmt.Fprintf(w, "statecomplete_flag = %s\n", tf(f.stateComplete))
	fmt.Fprintf(w, "weight_flag     = %s\n", tf(f.weight))
	fmt.Fprintf(w, "-----------------------------\n\n")
}
