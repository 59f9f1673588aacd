package options

import (
	"strings"
)

// CPUBind is srun's --cpu-bind as Slurm 22.05 verifies it (slurm_verify_cpu_bind): the
// binding flags and the list, from which the step's SLURM_CPU_BIND* variables are made.
type CPUBind struct {
	Verbose bool
	To      string // threads, cores, sockets, ldoms or ""
	Type    string // none, rank, map_cpu:, mask_cpu:, rank_ldom, map_ldom:, mask_ldom: or ""
	// List is what Slurm keeps as the bind list: the map or mask values, nothing for a
	// type that clears it (none, rank, rank_ldom), else the option's text as given.
	List string
}

// Set says whether Slurm's srun exports SLURM_CPU_BIND* for b (any flag set).
func (b CPUBind) Set() bool { return b.Verbose || b.To != "" || b.Type != "" }

// Binds says whether b asks the task plugin to bind tasks (not only to report or to not
// bind).
func (b CPUBind) Binds() bool { return b.To != "" || b.Type != "" && b.Type != "none" }

// Env is the step's SLURM_CPU_BIND, _LIST, _TYPE and _VERBOSE as Slurm's setup_env makes
// them (its concatenations included: --cpu-bind=cores gives "quiet,corescores").
func (b CPUBind) Env() (bind, list, typ, verbose string) {
	verbose = "quiet"
	if b.Verbose {
		verbose = "verbose"
	}
	typ = b.To
	if b.To != "" && b.Type != "" {
		typ += ","
	}
	typ += b.Type
	bind = verbose
	if typ != "" {
		bind += "," + typ + b.List
	}
	return bind, b.List, typ, verbose
}

// CPUBindHelp is --cpu-bind=help's text under TaskPlugin=task/none.
const CPUBindHelp = "CPU bind options not supported with current configuration\n"

// cpuBindHelpText is --cpu-bind=help's text under a task plugin that binds.
const cpuBindHelpText = `CPU bind options:
    --cpu-bind=         Bind tasks to CPUs
        q[uiet]         quietly bind before task runs (default)
        v[erbose]       verbosely report binding before task runs
        no[ne]          don't bind tasks to CPUs (default)
        rank            bind by task rank
        map_cpu:<list>  specify a CPU ID binding for each task
                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>
        mask_cpu:<list> specify a CPU ID binding mask for each task
                        where <list> is <mask1>,<mask2>,...<maskN>
        rank_ldom       bind task by rank to CPUs in a NUMA locality domain
        map_ldom:<list> specify a NUMA locality domain ID for each task
                        where <list> is <ldom1>,<ldom2>,...<ldomN>
        mask_ldom:<list>specify a NUMA locality domain ID mask for each task
                        where <list> is <mask1>,<mask2>,...<maskN>
        sockets         auto-generated masks bind to sockets
        cores           auto-generated masks bind to cores
        threads         auto-generated masks bind to threads
        ldoms           auto-generated masks bind to NUMA locality domains
        help            show this help message
`

// VerifyCPUBind checks srun's --cpu-bind value as Slurm 22.05 does, for the configured
// TaskPlugin. It returns the binding and the lines srun prints on stderr meanwhile (Slurm's
// "cluster configuration lacks support for cpu binding" under task/none). A bad value, or
// help, is an *Error with srun's output and exit code 1.
func VerifyCPUBind(arg, taskPlugin string) (CPUBind, []string, error) {
	haveBinding := taskPlugin != "task/none"
	var notes []string
	b := CPUBind{List: arg}
	// A ',' not followed by a value separates tokens; one followed by a value belongs to a
	// map or mask list.
	buf := []byte(arg)
	for i := 0; i < len(buf); i++ {
		if buf[i] == ',' && !isBindValue(string(buf[i+1:])) {
			buf[i] = ';'
		}
	}
	logged := false
	var errs []string
	for _, tok := range strings.Split(string(buf), ";") {
		low := strings.ToLower(tok)
		if low == "help" {
			help := CPUBindHelp
			if haveBinding {
				help = cpuBindHelpText
			}
			e := &Error{Stdout: help, ExitCode: 1}
			if len(notes) > 0 {
				e.Stderr = strings.Join(notes, "\n") + "\n"
			}
			return b, nil, e
		}
		if !haveBinding && !logged {
			notes = append(notes, "srun: cluster configuration lacks support for cpu binding")
			logged = true
		}
		switch {
		case low == "q" || low == "quiet":
			b.Verbose = false
		case low == "v" || low == "verbose":
			b.Verbose = true
		case low == "one_thread":
			// a flag Slurm keeps without an environment variable of its own
		case low == "no" || low == "none":
			b.Type, b.List = "none", ""
		case low == "rank":
			b.Type, b.List = "rank", ""
		case low == "rank_ldom":
			b.Type, b.List = "rank_ldom", ""
		case strings.HasPrefix(low, "map_cpu") || strings.HasPrefix(low, "mapcpu"):
			b.Type, b.List = "map_cpu:", ""
			errs = b.bindList(tok, "map_cpu", errs)
		case strings.HasPrefix(low, "mask_cpu") || strings.HasPrefix(low, "maskcpu"):
			b.Type, b.List = "mask_cpu:", ""
			errs = b.bindList(tok, "mask_cpu", errs)
		case strings.HasPrefix(low, "map_ldom") || strings.HasPrefix(low, "mapldom"):
			b.Type, b.List = "map_ldom:", ""
			errs = b.bindList(tok, "map_ldom", errs)
		case strings.HasPrefix(low, "mask_ldom") || strings.HasPrefix(low, "maskldom"):
			b.Type, b.List = "mask_ldom:", ""
			errs = b.bindList(tok, "mask_ldom", errs)
		case low == "socket" || low == "sockets":
			b.To = "sockets"
		case low == "core" || low == "cores":
			b.To = "cores"
		case low == "thread" || low == "threads":
			b.To = "threads"
		case low == "ldom" || low == "ldoms":
			b.To = "ldoms"
		default:
			errs = append(errs, "srun: error: unrecognized --cpu-bind argument \""+tok+"\"")
		}
		if len(errs) > 0 {
			break // Slurm stops at the first bad token
		}
	}
	if len(errs) > 0 {
		stderr := strings.Join(notes, "\n")
		if stderr != "" {
			stderr += "\n"
		}
		stderr += strings.Join(errs, "\n") + "\nsrun: fatal: Failed to parse --cpu-bind= values.\n"
		return b, nil, &Error{Stderr: stderr, ExitCode: 1}
	}
	return b, notes, nil
}

// bindList sets b.List from a map or mask token ("map_cpu:0,1*2"), expanding "v*n" into n
// copies and dropping the "0x" of masks, or adds Slurm's error.
func (b *CPUBind) bindList(tok, kind string, errs []string) []string {
	list := ""
	if i := strings.IndexAny(tok, ":="); i >= 0 {
		list = tok[i+1:]
		if j := strings.IndexAny(list, ":="); j >= 0 {
			list = list[:j]
		}
	}
	if list == "" {
		return append(errs, "srun: error: missing list for \"--cpu-bind="+kind+":<list>\"")
	}
	mask := strings.HasPrefix(kind, "mask")
	valid := func(s string) bool {
		for _, c := range s {
			if c >= '0' && c <= '9' || mask && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				continue
			}
			return false
		}
		return true
	}
	var out []string
	for _, v := range strings.Split(list, ",") {
		if v == "" {
			continue
		}
		if mask {
			v = strings.TrimPrefix(v, "0x")
		}
		count := 1
		if val, n, ok := strings.Cut(v, "*"); ok {
			c := 0
			for _, ch := range n {
				if ch < '0' || ch > '9' {
					return append(errs, "srun: error: Failed to validate number: *"+n+", the offending character is "+string(ch))
				}
				c = c*10 + int(ch-'0')
				if c > 1<<20 {
					break
				}
			}
			if c <= 0 || c > 1<<20 {
				return append(errs, "srun: error: Invalid "+kind+" multiplier: "+n)
			}
			v, count = val, c
		}
		if !valid(v) {
			bad := ""
			for _, c := range v {
				if !valid(string(c)) {
					bad = string(c)
					break
				}
			}
			return append(errs, "srun: error: Failed to validate number: "+v+", the offending character is "+bad)
		}
		for range count {
			out = append(out, v)
		}
	}
	b.List = strings.Join(out, ",")
	return errs
}

// isBindValue says whether s starts with a value of a map or mask list (Slurm's _isvalue):
// a digit, or hex digits up to the next ',' or the end.
func isBindValue(s string) bool {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		return true
	}
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f' || s[i] >= 'A' && s[i] <= 'F') {
		i++
	}
	return i == len(s) || s[i] == ','
}
