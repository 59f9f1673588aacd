package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// The options real sites' job scripts carry (--hint, --distribution, --mem-bind, --cpu-freq,
// --profile, ...): parsed and checked as Slurm 22.05's setters do, with its error texts and
// exit codes. What they change on the cluster is the commands' decision (sbatch checks the
// node shapes in slurm.conf); here they are only read.

// isSiteOption says whether applySite handles the option.
func isSiteOption(id string) bool {
	switch id {
	case "hint", "threads-per-core", "cores-per-socket", "sockets-per-node", "ntasks-per-core",
		"extra-node-info", "distribution", "mem-bind", "cpu-freq", "profile", "acctg-freq", "tmp", "delay-boot",
		"switches", "switch-req", "switch-wait", "spread-job", "use-min-nodes", "core-spec", "thread-spec":
		return true
	}
	return false
}

// applySite sets one of the site options (isSiteOption).
func (a *applier) applySite(o *Option, val string, src source) error {
	s := &a.js.Site
	a.memBy[o.ID] = src // validHint needs to know where --hint and its rivals came from
	switch o.ID {
	case "hint":
		// Slurm keeps the text and checks it once every option is in (verifyHint).
		s.Hint = val
	case "threads-per-core", "cores-per-socket", "sockets-per-node", "ntasks-per-core":
		n, err := parseInt(a.cmd, "--"+o.ID, val)
		if err != nil {
			return err
		}
		switch o.ID {
		case "threads-per-core":
			s.ThreadsPerCore = n
		case "cores-per-socket":
			s.CoresPerSocket = n
		case "sockets-per-node":
			s.SocketsPerNode = n
		default:
			s.NTasksPerCore = n
		}
	case "extra-node-info":
		shape, err := parseExtraNodeInfo(a.cmd, val)
		if err != nil {
			return err
		}
		s.SocketsPerNode, s.CoresPerSocket, s.ThreadsPerCore = shape[0], shape[1], shape[2]
	case "distribution":
		d, plane, ok := ParseDistribution(val)
		if !ok {
			return cmdError(a.cmd, 255, "Invalid --distribution specification")
		}
		s.Distribution, s.PlaneSize = d, plane
	case "mem-bind":
		mb, verbose, sort, err := ParseMemBind(val)
		if errors.Is(err, ErrMemBindHelp) {
			return &Error{Stdout: memBindHelp, ExitCode: 255} // on stdout, nothing on stderr
		}
		if err != nil {
			return cmdError(a.cmd, 255, err.Error())
		}
		s.MemBind, s.MemBindVerbose, s.MemBindSort = mb, verbose, sort
	case "cpu-freq":
		f, err := ParseCPUFreq(val)
		if err != nil {
			return cmdError(a.cmd, 255, err.Error(), "Invalid --cpu-freq argument")
		}
		s.CPUFreq, s.CPUFreqMin, s.CPUFreqMax, s.CPUFreqGov = f.String(), f.Min, f.Max, f.Gov
	case "profile":
		p, ok := ParseProfile(val)
		if !ok {
			return cmdError(a.cmd, 255, fmt.Sprintf("invalid --profile=%s option", val))
		}
		s.Profile = p
	case "acctg-freq":
		if !ValidAcctgFreq(val) {
			return cmdError(a.cmd, 255, "Invalid --acctg-freq specification: "+val)
		}
		s.AcctgFreq = val
	case "tmp":
		mb, err := memsize.ParseMB(val)
		if err != nil || mb == memsize.NoVal64 {
			return cmdError(a.cmd, 255, "Invalid --tmp specification")
		}
		s.TmpDiskMB = mb
	case "delay-boot":
		secs, err := slurmtime.ParseTimeLimitSecs(val)
		if err != nil || secs == slurmtime.NoVal {
			return cmdError(a.cmd, 255, "Invalid --delay-boot specification")
		}
		s.DelayBoot = secs
	case "switches", "switch-req":
		count, wait, hasWait := strings.Cut(val, "@")
		if hasWait {
			// Slurm does not check the wait: a bad one is NO_VAL, i.e. the default.
			secs, err := slurmtime.ParseTimeLimitSecs(wait)
			if err != nil {
				secs = slurmtime.NoVal
			}
			s.SwitchWait = secs
		}
		n, err := parseInt(a.cmd, "--switches", count)
		if err != nil {
			return err
		}
		s.ReqSwitch = n
	case "switch-wait":
		secs, err := slurmtime.ParseTimeLimitSecs(val)
		if err != nil {
			secs = slurmtime.NoVal
		}
		s.SwitchWait = secs
	case "spread-job":
		s.SpreadJob = true
	case "use-min-nodes":
		s.UseMinNodes = true
	case "core-spec", "thread-spec":
		n, err := parseInt(a.cmd, "--"+o.ID, val)
		if err != nil {
			return err
		}
		s.CoreSpec, s.ThreadSpec = n, o.ID == "thread-spec"
	}
	return nil
}

// verifyHint is Slurm's validate_hint_option and verify_hint: --hint and
// --ntasks-per-core/--threads-per-core/-B/--cpu-bind exclude each other (the one from the
// command line or #SBATCH wins; both from the command line drops --hint), and a kept hint
// sets the node-shape requests it implies.
func (a *applier) verifyHint() error {
	s := &a.js.Site
	src := func(id string) (source, bool) { v, ok := a.memBy[id]; return v, ok }
	hintSrc, hint := src("hint")
	cliRival, envRival := false, false
	for _, id := range []string{"ntasks-per-core", "threads-per-core", "extra-node-info"} {
		if v, ok := src(id); ok {
			cliRival = cliRival || v == fromCLI
			envRival = envRival || v == fromEnv
		}
	}
	if v, ok := src("cpu-bind"); ok {
		// --cpu-bind=verbose alone leaves a command-line --hint alone.
		b, _, _ := VerifyCPUBind(a.js.CPUBind, "")
		cliRival = cliRival || v == fromCLI && (b.To != "" || b.Type != "")
		envRival = envRival || v == fromEnv
	}
	info := func(msg string) {
		if a.js.Verbose > 0 {
			a.js.Warnings = append(a.js.Warnings, cmdName(a.cmd)+": "+msg+"\n")
		}
	}
	if _, ok := src("threads-per-core"); ok {
		// Slurm's _validate_threads_per_core_option, which runs first.
		switch b, _, _ := VerifyCPUBind(a.js.CPUBind, ""); {
		case !a.js.CPUBindSet:
			info("Setting --cpu-bind=threads as a default of --threads-per-core use")
		case a.cmd == Srun && a.js.CPUBind == "verbose" && b.Type == "":
			info("Setting --cpu-bind=threads,verbose as a default of --threads-per-core use")
		}
	}
	switch {
	case !hint || s.Hint == "":
		return nil
	case hintSrc == fromCLI && cliRival:
		info("Following options are mutually exclusive with --hint: --ntasks-per-core, --threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring --hint.")
		s.Hint = ""
		a.js.Undefine("hint")
		return nil
	case hintSrc == fromCLI:
		// Slurm resets --ntasks-per-core, --threads-per-core and -B, which takes all three
		// node-shape requests with it, --sockets-per-node and --cores-per-socket included.
		s.NTasksPerCore = jobspec.NoVal
		s.SocketsPerNode, s.CoresPerSocket, s.ThreadsPerCore = jobspec.NoVal, jobspec.NoVal, jobspec.NoVal
		// The binding goes, but a verbose flag stays with the hint's binding.
		if b, _, _ := VerifyCPUBind(a.js.CPUBind, ""); !b.Verbose {
			a.js.CPUBind, a.js.CPUBindSet = "", false
		}
		for _, id := range []string{"ntasks-per-core", "threads-per-core", "extra-node-info", "cpu-bind", "cpu_bind"} {
			a.js.Undefine(id)
		}
	case cliRival:
		s.Hint = ""
		a.js.Undefine("hint")
		return nil
	case envRival:
		info("Following options are mutually exclusive with --hint: --ntasks-per-core, --threads-per-core, -B and --cpu-bind, but more than one set by environment variables. Ignoring SLURM_HINT.")
		s.Hint = ""
		a.js.Undefine("hint")
		return nil
	}
	for _, tok := range hintTokens(s.Hint) {
		switch strings.ToLower(tok) {
		case "help":
			return &Error{Stdout: hintHelp, ExitCode: 1} // Slurm prints it on stdout
		case "compute_bound":
			s.SocketsPerNode, s.CoresPerSocket, s.ThreadsPerCore = jobspec.NoVal, jobspec.NoVal, 1
		case "memory_bound":
			s.CoresPerSocket, s.ThreadsPerCore = 1, 1
		case "multithread":
			s.ThreadsPerCore, s.NTasksPerCore = jobspec.NoVal, 0xffff
		case "nomultithread":
			s.ThreadsPerCore = 1
		default:
			return cmdError(a.cmd, 1, fmt.Sprintf("unrecognized --hint argument %q, see --hint=help", tok))
		}
	}
	return nil
}

// verifyCoreSpec is Slurm's check of -S/--core-spec against --thread-spec: both on the
// command line, or both from the environment with neither on the command line, stop the
// command (exit 1); one of each keeps the command line's.
func (a *applier) verifyCoreSpec() error {
	core, coreSet := a.memBy["core-spec"]
	thread, threadSet := a.memBy["thread-spec"]
	switch {
	case !coreSet || !threadSet:
		return nil
	case core == fromCLI && thread == fromCLI:
		return &Error{Stderr: cmdName(a.cmd) + ": fatal: -S/--core-spec and --thred-spec options are mutually exclusive\n", ExitCode: 1}
	case core == fromEnv && thread == fromEnv:
		return &Error{Stderr: cmdName(a.cmd) + ": fatal: Both --core-spec and --thread-spec set using environment variables. Those options are mutually exclusive.\n", ExitCode: 1}
	}
	return nil
}

const hintHelp = `Application hint options:
    --hint=             Bind tasks according to application hints
        compute_bound   use all cores in each socket
        memory_bound    use only one core in each socket
        [no]multithread [don't] use extra threads with in-core multi-threading
        help            show this help message
`

// ErrMemBindHelp is ParseMemBind's answer to --mem-bind=help: the command prints
// memBindHelp on stdout and exits 255, as Slurm's does.
var ErrMemBindHelp = errors.New("--mem-bind=help")

const memBindHelp = `Memory bind options:
    --mem-bind=         Bind memory to locality domains (ldom)
        nosort          avoid sorting pages at startup
        sort            sort pages at startup
        q[uiet]         quietly bind before task runs (default)
        v[erbose]       verbosely report binding before task runs
        no[ne]          don't bind tasks to memory (default)
        rank            bind by task rank
        local           bind to memory local to processor
        map_mem:<list>  specify a memory binding for each task
                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>
        mask_mem:<list> specify a memory binding mask for each tasks
                        where <list> is <mask1>,<mask2>,...<maskN>
        help            show this help message
`

// hintTokens splits a --hint value as Slurm does: at commas not followed by a digit.
func hintTokens(v string) []string {
	var out []string
	start := 0
	for i := 0; i < len(v); i++ {
		if v[i] == ',' && !(i+1 < len(v) && v[i+1] >= '0' && v[i+1] <= '9') {
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// ParseDistribution reads -m/--distribution as Slurm's verify_dist_type: plane=<size>, or
// up to three levels of block|cyclic (fcyclic below the first, "*" for the default of a
// level), "arbitrary" or "hostfile", optionally followed by ",pack" or ",nopack", or "pack"
// or "nopack" alone (any case: SLURM_DISTRIBUTION has them in lower case). It returns
// the name SLURM_DISTRIBUTION carries and the plane size (NoVal unless a plane).
func ParseDistribution(v string) (string, uint32, bool) {
	if len(v) >= 5 && strings.EqualFold(v[:5], "plane") {
		rest := v[5:]
		if !strings.HasPrefix(rest, "=") {
			return "", 0, false
		}
		n, tail, digits := strtol(rest[1:])
		if !digits || n <= 0 || n > int64(jobspec.NoVal) {
			return "", 0, false
		}
		name := "plane"
		if tail != "" {
			f, ok := distFlag(strings.TrimPrefix(tail, ","))
			if !ok || !strings.HasPrefix(tail, ",") {
				return "", 0, false
			}
			name += f
		}
		return name, uint32(n), true
	}
	if v == "" || v[0] == ',' {
		return "", 0, false
	}
	if f, ok := distFlag(v); ok {
		return f[1:], jobspec.NoVal, true // "pack" or "nopack" alone: how nodes are filled, no layout
	}
	base, flags, hasFlags := strings.Cut(v, ",")
	levels := strings.Split(base, ":")
	if len(levels) > 3 || base == "" {
		return "", 0, false
	}
	sock := ""
	for i, l := range levels {
		if l == "*" {
			switch i {
			case 0:
				l = "block"
			case 1:
				l = "cyclic"
			default:
				l = sock
			}
		}
		l = strings.ToLower(l)
		if i == 1 {
			sock = l
		}
		levels[i] = l
	}
	name := strings.Join(levels, ":")
	ok := false
	switch {
	case name == "hostfile" || name == "arbitrary":
		name, ok = "arbitrary", true
	case levels[0] == "block" || levels[0] == "cyclic":
		ok = true
		for _, l := range levels[1:] {
			ok = ok && (l == "block" || l == "cyclic" || l == "fcyclic")
		}
	}
	if !ok {
		return "", 0, false
	}
	if hasFlags && flags != "" {
		f, ok := distFlag(flags)
		if !ok {
			return "", 0, false
		}
		name += f
	}
	return name, jobspec.NoVal, true
}

func distFlag(f string) (string, bool) {
	switch strings.ToLower(f) {
	case "pack":
		return ",pack", true
	case "nopack":
		return ",nopack", true
	}
	return "", false
}

// ParseMemBind reads --mem-bind as Slurm's slurm_verify_mem_bind and returns the
// SLURM_MEM_BIND value sbatch exports (the binding type, then ":<list>" for map_mem and
// mask_mem) and the verbose and sort flags.
func ParseMemBind(v string) (value string, verbose, sort bool, err error) {
	const (
		prefer = 1 << iota
		none
		rank
		local
		mapMem
		maskMem
	)
	var flags int
	var list string
	for _, tok := range hintTokens(v) {
		lt := strings.ToLower(tok)
		switch {
		case lt == "help":
			return "", false, false, ErrMemBindHelp
		case lt == "p" || lt == "prefer":
			flags |= prefer
		case lt == "nosort":
			sort = false
		case lt == "sort":
			sort = true
		case lt == "q" || lt == "quiet":
			verbose = false
		case lt == "v" || lt == "verbose":
			verbose = true
		case lt == "no" || lt == "none":
			flags, list = flags&prefer|none, ""
		case lt == "rank":
			flags, list = flags&prefer|rank, ""
		case lt == "local":
			flags, list = flags&prefer|local, ""
		case strings.HasPrefix(lt, "map_mem") || strings.HasPrefix(lt, "mapmem") ||
			strings.HasPrefix(lt, "mask_mem") || strings.HasPrefix(lt, "maskmem"):
			kind, bit := "map_mem", mapMem
			if strings.HasPrefix(lt, "mask") {
				kind, bit = "mask_mem", maskMem
			}
			flags, list = flags&prefer|bit, ""
			l := ""
			if i := strings.IndexAny(tok, ":="); i >= 0 {
				l = tok[i+1:]
				if j := strings.IndexAny(l, ":="); j >= 0 {
					l = l[:j]
				}
			}
			if l == "" {
				return "", false, false, fmt.Errorf("missing list for \"--mem-bind=%s:<list>\"", kind)
			}
			list = expandMult(l)
		default:
			return "", false, false, fmt.Errorf("unrecognized --mem-bind argument %q", tok)
		}
	}
	var names []string
	if verbose {
		names = append(names, "verbose")
	}
	for _, f := range []struct {
		bit  int
		name string
	}{{prefer, "prefer"}, {none, "none"}, {rank, "rank"}, {local, "local"}, {mapMem, "map_mem"}, {maskMem, "mask_mem"}} {
		if flags&f.bit != 0 {
			names = append(names, f.name)
		}
	}
	if sort {
		// slurm_xstr_mem_bind_type lists sort after prefer.
		names = append(names[:0:0], names...)
		at := 0
		for at < len(names) && (names[at] == "verbose" || names[at] == "prefer") {
			at++
		}
		names = append(names[:at], append([]string{"sort"}, names[at:]...)...)
	}
	value = strings.Join(names, ",")
	if list != "" {
		value += ":" + list
	}
	return value, verbose, sort, nil
}

// expandMult expands "x*n" items of a map/mask list into n copies of x.
func expandMult(l string) string {
	var out []string
	for _, it := range strings.Split(l, ",") {
		x, n, ok := strings.Cut(it, "*")
		if !ok {
			out = append(out, it)
			continue
		}
		c, err := strconv.Atoi(n)
		if err != nil || c < 1 || c > 1024 {
			c = 1
		}
		for i := 0; i < c; i++ {
			out = append(out, x)
		}
	}
	return strings.Join(out, ",")
}

// CPUFreq is a parsed --cpu-freq=p1[-p2][:governor]: Min, Max and Gov are Slurm's
// cpu_freq_min/max/gov (NoVal when unset; synonyms and governors have cpuFreqRange set).
type CPUFreq struct{ Min, Max, Gov uint32 }

// Slurm's CPU_FREQ_* values.
const (
	cpuFreqRange        = 0x80000000
	cpuFreqLow          = 0x80000001
	cpuFreqMedium       = 0x80000002
	cpuFreqHigh         = 0x80000003
	cpuFreqHighM1       = 0x80000004
	cpuFreqConservative = 0x88000000
	cpuFreqOnDemand     = 0x84000000
	cpuFreqPerformance  = 0x82000000
	cpuFreqPowerSave    = 0x81000000
	cpuFreqUserSpace    = 0x80800000
	cpuFreqSchedUtil    = 0x80400000
	// cpuFreqDefaultGovs is slurm.conf's CpuFreqGovernors default (OnDemand,Performance,UserSpace).
	cpuFreqDefaultGovs = cpuFreqOnDemand | cpuFreqPerformance | cpuFreqUserSpace
)

var cpuFreqNames = map[uint32]string{
	cpuFreqLow: "Low", cpuFreqMedium: "Medium", cpuFreqHigh: "High", cpuFreqHighM1: "Highm1",
	cpuFreqConservative: "Conservative", cpuFreqOnDemand: "OnDemand", cpuFreqPerformance: "Performance",
	cpuFreqPowerSave: "PowerSave", cpuFreqUserSpace: "UserSpace", cpuFreqSchedUtil: "SchedUtil",
}

// ParseCPUFreq reads --cpu-freq as Slurm's cpu_freq_verify_cmdline with slurm.conf's default
// CpuFreqGovernors; the error is Slurm's first line (the command adds "Invalid --cpu-freq
// argument").
func ParseCPUFreq(v string) (CPUFreq, error) {
	f := CPUFreq{Min: jobspec.NoVal, Max: jobspec.NoVal, Gov: jobspec.NoVal}
	var p1, p2, p3 string
	hasP2, hasP3 := false, false
	head := v
	if i := strings.IndexByte(v, ':'); i >= 0 {
		p3, hasP3, head = v[i+1:], true, v[:i]
	}
	if i := strings.IndexByte(v, '-'); i >= 0 {
		p1 = v[:i]
		if hasP3 && i < len(head) {
			p2 = head[i+1:]
		} else if !hasP3 {
			p2 = v[i+1:]
		}
		hasP2 = true
	} else {
		p1 = head
	}
	if g := cpuFreqGov(p1); g != 0 {
		if hasP3 {
			return f, fmt.Errorf("governor cannot be specified twice %s{-}:%s in --cpu-freq", p1, p3)
		}
		f.Gov = g
	} else {
		n, err := cpuFreqValue(p1)
		if err != nil {
			return f, err
		}
		f.Max = n
	}
	if hasP2 {
		n, err := cpuFreqValue(p2)
		if err != nil {
			return f, err
		}
		f.Min, f.Max = f.Max, n
		if f.Max < f.Min {
			return f, fmt.Errorf("min cpu-frec (%s) must be < max cpu-freq (%s)", p1, p2)
		}
	}
	if hasP3 {
		if !hasP2 {
			return f, fmt.Errorf("gov on cpu-frec (%s) illegal without max", p3)
		}
		g := cpuFreqGov(p3)
		if g == 0 {
			return f, fmt.Errorf("illegal governor: %s on --cpu-freq", p3)
		}
		f.Gov = g
	}
	if f.Gov != jobspec.NoVal && f.Gov&cpuFreqDefaultGovs&^cpuFreqRange == 0 {
		return f, fmt.Errorf("governor of %s is not allowed in slurm.conf", v)
	}
	return f, nil
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

func cpuFreqGov(s string) uint32 {
	switch {
	case hasPrefixFold(s, "co"):
		return cpuFreqConservative
	case hasPrefixFold(s, "perf"):
		return cpuFreqPerformance
	case hasPrefixFold(s, "pow"):
		return cpuFreqPowerSave
	case hasPrefixFold(s, "user"):
		return cpuFreqUserSpace
	case hasPrefixFold(s, "onde"):
		return cpuFreqOnDemand
	case hasPrefixFold(s, "sche"):
		return cpuFreqSchedUtil
	}
	return 0
}

func cpuFreqValue(s string) (uint32, error) {
	switch {
	case hasPrefixFold(s, "lo"):
		return cpuFreqLow, nil
	case hasPrefixFold(s, "him1"), hasPrefixFold(s, "highm1"):
		return cpuFreqHighM1, nil
	case hasPrefixFold(s, "hi"):
		return cpuFreqHigh, nil
	case hasPrefixFold(s, "med"):
		return cpuFreqMedium, nil
	}
	// strtoul: leading digits, anything after them ignored; 0 (or none) is an error.
	n, _, digits := strtol(s)
	if digits && n > 0 && n <= 0xffffffff && !strings.HasPrefix(strings.TrimSpace(s), "-") {
		return uint32(n), nil
	}
	return 0, fmt.Errorf("unrecognized --cpu-freq argument %q", s)
}

// String is Slurm's cpu_freq_to_cmdline: the form SLURM_CPU_FREQ_REQ carries.
func (f CPUFreq) String() string {
	str := func(v uint32) string {
		if v&cpuFreqRange != 0 {
			return cpuFreqNames[v]
		}
		return strconv.FormatUint(uint64(v), 10)
	}
	set := func(v uint32) bool { return v != jobspec.NoVal && v != 0 }
	switch {
	case set(f.Min) && set(f.Max) && set(f.Gov):
		return str(f.Min) + "-" + str(f.Max) + ":" + str(f.Gov)
	case set(f.Min) && set(f.Max):
		return str(f.Min) + "-" + str(f.Max)
	case set(f.Max):
		return str(f.Max)
	case set(f.Gov):
		return str(f.Gov)
	}
	return ""
}

// ParseProfile reads --profile as Slurm's acct_gather_profile_from_string (substrings,
// case-insensitive) and returns SLURM_PROFILE's spelling; ok is false when nothing matched.
func ParseProfile(v string) (string, bool) {
	l := strings.ToLower(v)
	switch {
	case strings.Contains(l, "none"):
		return "None", true
	case strings.Contains(l, "all"):
		return "Energy,Lustre,Network,Task", true
	}
	var out []string
	for _, k := range []struct{ sub, name string }{{"energy", "Energy"}, {"lustre", "Lustre"}, {"network", "Network"}, {"task", "Task"}} {
		if strings.Contains(l, k.sub) {
			out = append(out, k.name)
		}
	}
	return strings.Join(out, ","), len(out) > 0
}

// ValidAcctgFreq is Slurm's validate_acctg_freq: a comma list whose items are a number (the
// task interval) or <type>=<number> for task, energy, network or filesystem.
func ValidAcctgFreq(v string) bool {
	for _, it := range strings.Split(v, ",") {
		k, n, ok := strings.Cut(it, "=")
		if !ok {
			n = k
		} else {
			switch strings.ToLower(k) {
			case "task", "energy", "network", "filesystem":
			default:
				return false
			}
		}
		i, rest, digits := strtol(n)
		if !digits || rest != "" || i < 0 || i > 0xffff {
			return false
		}
	}
	return true
}

// NodeShapeCounts is sbatch's "massage the numbers": with a node count but no task count,
// one task per node times the requested sockets, cores and threads per node.
func (a *applier) nodeShapeCounts() {
	js, s := a.js, &a.js.Site
	if !js.NodesSet || js.NTasks != jobspec.NoVal || !(js.MaxNodes == 0 || js.MaxNodes == js.MinNodes) {
		return
	}
	n := max(js.MinNodes, 1)
	set := false
	for _, f := range []uint32{s.SocketsPerNode, s.CoresPerSocket, s.ThreadsPerCore} {
		if f != jobspec.NoVal {
			n *= f
			set = true
		}
	}
	if set {
		js.NTasks = n
	}
}

// settleNodesAndTasks is sbatch's and salloc's _opt_verify on a job's node and task counts:
// a --nodelist asks for at least its nodes (each once); with both counts given, the
// maximum node count is at most the tasks, and fewer tasks than nodes lowers the node
// count to the tasks, with a warning, keeping the list's first nodes.
func (a *applier) settleNodesAndTasks() {
	js := a.js
	if a.cmd != Sbatch && a.cmd != Salloc {
		return
	}
	var listed []string
	if js.NodeList != "" && !strings.Contains(js.NodeList, "/") {
		hl := hostlist.FromNames(mustExpandList(js.NodeList))
		hl.Uniq()
		listed = hl.Hosts()
		if n := uint32(len(listed)); !js.NodesSet || js.MinNodes == jobspec.NoVal || n > js.MinNodes {
			js.MinNodes = n
		}
		js.NodesSet = true
	}
	if !js.NodesSet || js.NTasks == jobspec.NoVal || js.MinNodes == jobspec.NoVal {
		return
	}
	if js.NTasks < js.MaxNodes {
		js.MaxNodes = js.NTasks
	}
	if js.NTasks < js.MinNodes {
		js.Warnings = append(js.Warnings, fmt.Sprintf("%s: Warning: can't run %d processes on %d nodes, setting nnodes to %d\n",
			cmdName(a.cmd), js.NTasks, js.MinNodes, js.NTasks))
		js.MinNodes, js.MaxNodes = js.NTasks, js.NTasks
		if uint32(len(listed)) > js.MinNodes {
			js.NodeList = hostlist.Compress(listed[:js.MinNodes])
		}
	}
}

// TaskDist is Slurm's task_dist_states value of a distribution as ParseDistribution names
// it (what -vv's "laying out" line prints): the node level's block 2, cyclic 1, arbitrary 3,
// plane 4, each lower level's block, cyclic or fcyclic in its own digit, pack and nopack as
// flags; no distribution is SLURM_DIST_UNKNOWN (0x2000).
func TaskDist(name string) uint32 {
	const unknown, pack, noPack = 0x2000, 0x800000, 0x400000
	base, flag, _ := strings.Cut(name, ",")
	var d uint32
	switch base {
	case "pack":
		return unknown | pack
	case "nopack":
		return unknown | noPack
	case "", "*":
		d = unknown
	case "plane":
		d = 4
	case "arbitrary":
		d = 3
	default:
		for i, l := range strings.Split(base, ":") {
			var v uint32
			switch l {
			case "cyclic":
				v = 1
			case "block":
				v = 2
			case "fcyclic":
				v = 3
			}
			d |= v << (4 * i)
		}
	}
	switch flag {
	case "pack":
		d |= pack
	case "nopack":
		d |= noPack
	}
	return d
}
