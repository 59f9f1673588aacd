package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
)

// bindEnv sets the step's distribution and binding variables as Slurm's srun does
// (setup_env from srun's options), with put, and names in drop the inherited ones it
// unsets without setting again:
//
//   - SLURM_DISTRIBUTION: srun's -m (or the SLURM_DISTRIBUTION it inherits) as given; with
//     none, inside an allocation "cyclic" when the step has no more tasks than nodes and
//     "block" otherwise (the layout srun asks for), and nothing for srun's own allocation.
//     A plane distribution adds SLURM_DIST_PLANESIZE.
//   - SLURM_MEM_BIND and its parts (_LIST, _PREFER, _SORT, _TYPE, _VERBOSE), rewritten from
//     --mem-bind (or the inherited SLURM_MEM_BIND) in srun's form: "quiet,local",
//     "verbose,map_mem:0,1".
//   - SLURM_CPU_BIND and its parts (_LIST, _TYPE, _VERBOSE): --threads-per-core (or the
//     inherited SLURM_THREADS_PER_CORE that sbatch --hint and --threads-per-core export)
//     means --cpu-bind=threads, and a --hint srun keeps binds to threads or cores; the
//     thread count itself goes to SLURM_THREADS_PER_CORE (not with -E). --ntasks-per-core
//     binds to cores and goes to SLURM_NTASKS_PER_CORE. An explicit --cpu-bind replaces
//     these (checkCPUBind).
//   - SLURM_CPU_FREQ_REQ: --cpu-freq (or the inherited SLURM_CPU_FREQ_REQ) as Slurm prints
//     it back ("Low", "1000-2000:OnDemand").
func (e *stepEnv) bindEnv(put func(k, v string), drop map[string]bool) {
	s := &e.site
	if s.CPUFreq != "" {
		put("SLURM_CPU_FREQ_REQ", s.CPUFreq)
	}
	if d := e.distribution(); d != "" {
		put("SLURM_DISTRIBUTION", d)
		if strings.HasPrefix(d, "plane") && s.PlaneSize != jobspec.NoVal {
			put("SLURM_DIST_PLANESIZE", strconv.FormatUint(uint64(s.PlaneSize), 10))
		}
	}
	if s.ThreadsPerCore != jobspec.NoVal && !e.preserve {
		put("SLURM_THREADS_PER_CORE", strconv.FormatUint(uint64(s.ThreadsPerCore), 10))
	}
	if s.NTasksPerCore != jobspec.NoVal {
		// --ntasks-per-core (65535 for --hint=multithread), as Slurm's setup_env exports it.
		put("SLURM_NTASKS_PER_CORE", strconv.FormatUint(uint64(s.NTasksPerCore), 10))
	}
	// A --cpu-bind that sets nothing (quiet) leaves the inherited variables alone, as Slurm.
	if b, _ := stepCPUBind(e.cpuBind, s, hasVar(e.base, "SLURM_THREADS_PER_CORE")); b != nil && b.Set() {
		for _, n := range []string{"SLURM_CPU_BIND", "SLURM_CPU_BIND_LIST", "SLURM_CPU_BIND_TYPE", "SLURM_CPU_BIND_VERBOSE"} {
			drop[n] = true
		}
		bind, list, typ, verbose := b.Env()
		put("SLURM_CPU_BIND", bind)
		put("SLURM_CPU_BIND_LIST", list)
		put("SLURM_CPU_BIND_TYPE", typ)
		put("SLURM_CPU_BIND_VERBOSE", verbose)
	}
	if s.MemBind != "" {
		for _, n := range []string{"SLURM_MEM_BIND", "SLURM_MEM_BIND_LIST", "SLURM_MEM_BIND_PREFER",
			"SLURM_MEM_BIND_SORT", "SLURM_MEM_BIND_TYPE", "SLURM_MEM_BIND_VERBOSE"} {
			drop[n] = true
		}
		m := splitMemBind(s.MemBind)
		verbose := "quiet"
		if m.verbose {
			verbose = "verbose"
		}
		bind := verbose
		if m.prefer {
			bind += ",prefer"
		}
		if m.typ != "" {
			bind += "," + m.typ + m.list
		}
		put("SLURM_MEM_BIND", bind)
		put("SLURM_MEM_BIND_LIST", m.list)
		if m.prefer {
			put("SLURM_MEM_BIND_PREFER", "prefer")
		}
		if m.sort {
			put("SLURM_MEM_BIND_SORT", "sort")
		}
		put("SLURM_MEM_BIND_TYPE", m.typ)
		put("SLURM_MEM_BIND_VERBOSE", verbose)
	}
}

// distribution is the step's SLURM_DISTRIBUTION ("" for none).
func (e *stepEnv) distribution() string {
	switch {
	case e.site.Distribution != "":
		return e.site.Distribution
	case !e.inAlloc && !e.noAlloc:
		return ""
	case e.step.NumTasks <= uint32(len(e.step.Nodes)):
		return "cyclic"
	default:
		return "block"
	}
}

// stepCPUBind is the binding the step gets: --cpu-bind (b) as given, or the one --hint,
// --threads-per-core or --ntasks-per-core stand for (cpuBindType), into which a --cpu-bind
// that only says verbose merges, as Slurm's srun does: keeping "verbose" as its bind list
// (which Slurm's SLURM_CPU_BIND then repeats) unless a --hint set the binding. oneThread is
// --hint=nomultithread's one thread per core, which the -v launch line names. nil: none.
func stepCPUBind(b *compatopts.CPUBind, s *jobspec.SiteOptions, tpcEnv bool) (_ *compatopts.CPUBind, oneThread bool) {
	if b != nil && (b.To != "" || b.Type != "" || !b.Verbose) {
		return b, false // an explicit binding, or quiet
	}
	t := cpuBindType(s, tpcEnv)
	if t == "" {
		return b, false
	}
	byHint := !tpcEnv && s.Hint != ""
	if byHint {
		for _, tok := range strings.Split(s.Hint, ",") {
			oneThread = oneThread || strings.EqualFold(tok, "nomultithread")
		}
	}
	merged := &compatopts.CPUBind{To: t}
	if b != nil {
		merged.Verbose = true
		if !byHint {
			merged.List = b.List
		}
	}
	return merged, oneThread
}

// cpuBindType is the binding srun asks for without --cpu-bind ("" for none). A
// --threads-per-core binds to threads; one inherited from the allocation
// (SLURM_THREADS_PER_CORE, tpcEnv) does so even when srun's own --hint is kept, as the
// reference shows. Otherwise a kept --hint binds to threads ([no]multithread) or cores
// (compute_bound, memory_bound), and --ntasks-per-core to cores.
func cpuBindType(s *jobspec.SiteOptions, tpcEnv bool) string {
	if tpcEnv {
		return "threads"
	}
	if s.Hint != "" {
		threads, cores := false, false
		for _, tok := range strings.Split(s.Hint, ",") {
			switch strings.ToLower(tok) {
			case "multithread", "nomultithread":
				threads = true
			case "compute_bound", "memory_bound":
				cores = true
			}
		}
		switch {
		case threads:
			return "threads"
		case cores:
			return "cores"
		}
		return ""
	}
	if s.ThreadsPerCore != jobspec.NoVal {
		return "threads"
	}
	if s.NTasksPerCore != jobspec.NoVal {
		return "cores"
	}
	return ""
}

// checkCPUBind verifies --cpu-bind for the configured TaskPlugin as Slurm's srun does,
// printing its notes, and keeps the binding for the step's environment. It returns srun's
// exit code when srun must stop (a bad value, help, a binding Orbit cannot do), else -1.
// Orbit binds no task to CPUs: under task/none Slurm does not either (and says so), and
// under task/cgroup alone it only confines; under task/affinity a request to bind is
// refused by name rather than silently not honoured.
func checkCPUBind(o *options, taskPlugin string, stdout, stderr io.Writer) int {
	b, notes, err := compatopts.VerifyCPUBind(o.spec.CPUBind, taskPlugin)
	if err != nil {
		var perr *compatopts.Error
		if errors.As(err, &perr) {
			io.WriteString(stdout, perr.Stdout)
			io.WriteString(stderr, perr.Stderr)
			return perr.ExitCode
		}
		return 1
	}
	for _, n := range notes {
		fmt.Fprintln(stderr, n)
	}
	if b.Binds() && strings.Contains(taskPlugin, "affinity") {
		fmt.Fprintln(stderr, "srun: error: --cpu-bind with task/affinity is not supported by Orbit's srun yet")
		return 1
	}
	o.cpuBind = &b
	return -1
}

// cpuBindUnsupported says srun prints Slurm's "cluster configuration lacks support for cpu
// binding" line: --threads-per-core stands for --cpu-bind=threads (cpuBindType), and
// slurm.conf has no task plugin that binds (TaskPlugin=task/none). A kept --hint binds
// without that check.
func cpuBindUnsupported(s *jobspec.SiteOptions, tpcEnv bool, taskPlugin string) bool {
	return taskPlugin == "task/none" && (tpcEnv || s.Hint == "" && s.ThreadsPerCore != jobspec.NoVal)
}

// inputEnv is srun's environment as its option parser reads it: an inherited
// SLURM_DISTRIBUTION=plane (what sbatch -m plane=N exports) takes its size from
// SLURM_DIST_PLANESIZE, as Slurm's srun does.
func inputEnv(env []string) []string {
	dist, okDist := lookupVar(env, "SLURM_DISTRIBUTION")
	size, okSize := lookupVar(env, "SLURM_DIST_PLANESIZE")
	if !okDist || !okSize || !strings.EqualFold(dist, "plane") {
		return env
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "SLURM_DISTRIBUTION=") {
			kv = "SLURM_DISTRIBUTION=" + dist + "=" + size
		}
		out = append(out, kv)
	}
	return out
}

// mergeMemBind lays srun's --mem-bind over the SLURM_MEM_BIND it inherits, as Slurm's srun
// parses both into one set of flags: the command line's binding type replaces the
// inherited one, its verbose and sort words change those flags, and an inherited prefer
// stays. (The command line's value arrives here in compat/options' normalised form, so a
// "quiet" or "nosort" on it is not seen.)
func mergeMemBind(s *jobspec.SiteOptions, env []string) {
	inherited, ok := lookupVar(env, "SLURM_MEM_BIND")
	if !ok || s.MemBind == "" {
		return
	}
	if v, _, _, err := compatopts.ParseMemBind(inherited); err != nil || v == s.MemBind {
		return // unusable, or the value srun has is the inherited one
	}
	if v, verbose, sort, err := compatopts.ParseMemBind(inherited + "," + s.MemBind); err == nil {
		s.MemBind, s.MemBindVerbose, s.MemBindSort = v, verbose, sort
	}
}

// lookupVar is env's value of name.
func lookupVar(env []string, name string) (string, bool) {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// memBind is a --mem-bind value (compat/options.ParseMemBind's form) taken apart.
type memBind struct {
	verbose, prefer, sort bool
	typ                   string // "none", "rank", "local", "map_mem:", "mask_mem:" or ""
	list                  string // the map or mask list
}

// splitMemBind takes apart "verbose,prefer,sort,map_mem:0,1".
func splitMemBind(v string) memBind {
	var m memBind
	head, list, hasList := strings.Cut(v, ":")
	for _, tok := range strings.Split(head, ",") {
		switch tok {
		case "verbose":
			m.verbose = true
		case "prefer":
			m.prefer = true
		case "sort":
			m.sort = true
		case "none", "rank", "local":
			m.typ = tok
		case "map_mem", "mask_mem":
			m.typ = tok + ":"
		}
	}
	if hasList {
		m.list = list
	}
	return m
}
