package options

import (
	"fmt"
	"github.com/orbit-hpc/orbit/compat/loglevel"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// source says where a value came from; the memory options' exclusivity depends on it.
type source int

const (
	fromCLI source = iota // command line or #SBATCH (Slurm counts both as "cli")
	fromEnv
)

// applier carries what setting options needs besides the spec.
type applier struct {
	cmd   Cmds
	js    *jobspec.JobSpec
	cwd   string
	now   time.Time
	memBy map[string]source // which memory (and --hint's rival) options are set, and how
	sa    *SallocOptions    // salloc's own options (salloc.go); nil for the other commands
	gpu   gpuOpts           // --gres and --gpus-per-node as given (gpu.go)
}

// apply sets one option's value on the spec, as the option's Slurm setter does, and
// returns the command's error for a bad value.
func (a *applier) apply(o *Option, val string, hasVal bool, src source) (err error) {
	js := a.js
	defer func() {
		if err == nil { // Slurm marks an option set once its setter accepts the value
			js.Define(jobspec.DefinedOption{ID: o.ID, Value: val, HasVal: hasVal})
		}
	}()
	if !o.Implemented {
		return cmdError(a.cmd, 1, fmt.Sprintf("%s is not supported by Orbit yet", displayName(o)))
	}
	switch o.ID {
	case "account":
		js.Account = val
	case "uid", "gid":
		return a.applyRunAs(o.ID, val) // run_as.go
	case "cluster", "clusters": // one value, as Slurm's two spellings share one field
		js.Clusters, js.ClustersSet = val, true
	case "comment":
		js.Comment = val
	case "constraint":
		js.Constraint = val
	case "batch":
		js.BatchFeatures = val
	case "licenses":
		js.Licenses = val
	case "gres", "gpus-per-node":
		a.applyGpus(o.ID, val) // gpu.go
	case "gpus", "gpus-per-task", "gpus-per-socket", "cpus-per-gpu", "mem-per-gpu", "ntasks-per-gpu":
		a.unmodelledGPU(o.ID) // gpu.go
		if err := a.gpuTres(o.ID, val); err != nil {
			return err
		}
		if o.ID == "mem-per-gpu" {
			a.memBy[o.ID] = src // a rival of --mem and --mem-per-cpu (verify.go)
		}
	case "mail-user":
		js.MailUser = val
	case "partition":
		js.Partition = val
	case "qos":
		js.QOS = val
	case "reservation":
		js.Reservation = val
	case "wckey":
		js.WCKey = val
	case "job-name":
		js.Name, js.NameFromCLI = val, src == fromCLI
	case "exclude":
		js.Exclude = val
	case "nodelist":
		js.NodeList = val
	case "overcommit":
		js.Overcommit = true
	case "mincpus":
		n, err := parseInt(a.cmd, "--mincpus", val)
		if err != nil {
			return err
		}
		js.MinCPUs = n
	case "nodefile":
		js.NodeFile = val // resolved after every option (nodefile.go)
	case "dependency":
		js.Dependency = val
	case "export":
		js.Export = val
	case "array":
		js.ArraySpec = val
	case "jobid":
		js.JobID = val
	case "slurmd-debug":
		js.SlurmdDebug = loglevel.Parse(val) // log_string2num: an unknown name is NO_VAL16
	case "alloc-nodelist":
		js.AllocNodeList = val
	case "wrap":
		js.Wrap = val
	case "output":
		js.Output = val
	case "error":
		js.Error = val
	case "input":
		js.Input = val
	case "chdir":
		if strings.HasPrefix(val, "/") {
			js.WorkDir = val
		} else {
			js.WorkDir = a.cwd + "/" + val
		}
	case "kill-on-invalid-dep":
		switch strings.ToLower(val) {
		case "yes":
			js.KillInvalidDep = 1
		case "no":
			js.KillInvalidDep = 2
		default:
			return cmdError(a.cmd, 255, "Invalid --kill-on-invalid-dep specification")
		}
		// Slurm ORs yes and no into the job's flags and never clears them, not even between
		// sbatch's passes, and yes wins over no; the record keeps what was seen.
		if prev, ok := js.DefinedValue(o.ID); ok && strings.EqualFold(prev.Value, "yes") {
			js.KillInvalidDep, val = 1, prev.Value
		}
	case "nodes":
		js.NodesByCLI = src == fromCLI
		return a.setNodes(val)
	case "no-kill":
		switch {
		case !hasVal || strings.EqualFold(val, "set"):
			js.NoKill = true
		case strings.EqualFold(val, "off"), strings.EqualFold(val, "no"):
			js.NoKill = false
		default:
			return cmdError(a.cmd, 255, "Invalid --no-kill specification")
		}
	case "wait-all-nodes":
		n, rest, digits := strtol(val)
		if !digits || rest != "" || n < 0 {
			return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value %q for --wait-all-nodes.", val))
		}
		if uint16(n) > 1 { // Slurm keeps it in 16 bits
			return cmdError(a.cmd, 255, "Invalid --wait-all-nodes specification")
		}
		js.WaitAllNodes = uint32(uint16(n))
	case "gres-flags":
		if !strings.EqualFold(val, "enforce-binding") && !strings.EqualFold(val, "disable-binding") {
			return cmdError(a.cmd, 255, "Invalid --gres-flags specification")
		}
		js.GresFlags = strings.ToLower(val)
	case "ntasks":
		n, err := parseInt(a.cmd, "--ntasks", val)
		if err != nil {
			return err
		}
		js.NTasks, js.NTasksByCLI = n, src == fromCLI
	case "cpus-per-task":
		n, err := parseInt(a.cmd, "--cpus-per-task", val)
		if err != nil {
			return err
		}
		js.CPUsPerTask = n
	case "ntasks-per-node", "tasks-per-node":
		n, err := parseInt(a.cmd, "--ntasks-per-node", val)
		if err != nil {
			return err
		}
		js.NTasksPerNode = n
	case "time", "time-min":
		m, err := slurmtime.ParseTimeLimit(val)
		if err != nil || m == slurmtime.NoVal {
			return cmdError(a.cmd, 255, fmt.Sprintf("Invalid --%s specification", o.ID))
		}
		if m == 0 {
			m = jobspec.Infinite
		}
		if o.ID == "time" {
			js.TimeLimit = m
		} else {
			js.TimeMin = m
		}
	case "mem", "mem-per-cpu":
		mb, err := memsize.ParseMB(val)
		if err != nil || mb == memsize.NoVal64 {
			return cmdError(a.cmd, 255, fmt.Sprintf("Invalid --%s specification", o.ID))
		}
		if o.ID == "mem" {
			js.MemPerNode = mb
			if a.cmd == Srun {
				js.MemPerCPU = jobspec.NoVal64
			}
		} else {
			js.MemPerCPU = mb
		}
		a.memBy[o.ID] = src
	case "begin", "deadline":
		t, err := slurmtime.ParseTime(val, a.now)
		if err != nil || t.IsZero() {
			var pre string
			if err != nil {
				pre = err.Error() + "\n"
			}
			e := cmdError(a.cmd, 255, fmt.Sprintf("Invalid --%s specification", o.ID))
			e.Stderr = pre + e.Stderr
			return e
		}
		if o.ID == "begin" {
			js.Begin = t
		} else {
			js.Deadline = t
		}
	case "nice":
		n := int64(100)
		if hasVal {
			n = strtoll(val)
		}
		if n > math.MaxInt32-2 || n < -(math.MaxInt32-2) {
			return cmdError(a.cmd, 255, "Invalid --nice value, out of range (+/- 2147483645)")
		}
		js.Nice, js.NiceSet = int32(n), true
	case "priority":
		if strings.EqualFold(val, "TOP") {
			js.Priority = jobspec.NoVal - 1
			break
		}
		p := strtoll(val)
		if p < 0 {
			return cmdError(a.cmd, 255, "Priority must be >= 0")
		}
		if p >= int64(jobspec.NoVal) {
			return cmdError(a.cmd, 255, fmt.Sprintf("Priority must be < %d", jobspec.NoVal))
		}
		js.Priority = uint32(p)
	case "signal":
		s, ok := parseSignal(val, a.cmd == Sbatch)
		if !ok {
			return cmdError(a.cmd, 255, "Invalid --signal specification")
		}
		js.Signal = s
	case "open-mode":
		switch {
		case strings.HasPrefix(val, "a") || strings.HasPrefix(val, "A"):
			js.OpenMode = jobspec.OpenModeAppend
		case strings.HasPrefix(val, "t") || strings.HasPrefix(val, "T"):
			js.OpenMode = jobspec.OpenModeTruncate
		default:
			return cmdError(a.cmd, 255, "Invalid --open-mode specification")
		}
	case "exclusive":
		switch {
		case !hasVal || strings.EqualFold(val, "exclusive"):
			js.Exclusive = jobspec.SharedNone
			js.Exact = js.Exact || a.cmd == Srun // a step of srun --exclusive is an --exact one
		case strings.EqualFold(val, "oversubscribe"):
			js.Exclusive = jobspec.SharedOK
		case strings.EqualFold(val, "user"):
			js.Exclusive = jobspec.SharedUser
		case strings.EqualFold(val, "mcs"):
			js.Exclusive = jobspec.SharedMCS
		default:
			return cmdError(a.cmd, 255, "Invalid --exclusive specification")
		}
	case "oversubscribe": // the same request as --exclusive=oversubscribe (JOB_SHARED_OK)
		js.Exclusive = jobspec.SharedOK
	case "mail-type":
		m, ok := jobspec.ParseMailType(val)
		if !ok {
			return cmdError(a.cmd, 255, "Invalid --mail-type specification")
		}
		js.MailType |= m
	case "requeue":
		js.Requeue = 1
	case "no-requeue":
		js.Requeue = 0
	case "hold":
		js.Hold = true
	case "label":
		js.Label = true
	case "unbuffered":
		js.Unbuffered = true
	case "multi-prog":
		js.MultiProg = true
	case "mpi":
		js.MPI = val
	case "bcast":
		js.Bcast, js.BcastSet = val, true
	case "send-libs":
		// Slurm's parse_send_libs: yes/y (or nothing) and no/n, in any case.
		switch strings.ToLower(val) {
		case "", "yes", "y":
			js.SendLibs = true
		case "no", "n":
			js.SendLibs = false
		default:
			return cmdError(a.cmd, 255, "Invalid --send-libs specification")
		}
		if !hasVal {
			js.SendLibs = true
		}
		js.SendLibsSet = true
	case "bcast-exclude":
		js.BcastExclude, js.BcastExcludeSet = val, true
	case "accel-bind":
		if !strings.ContainsAny(val, "vgn") {
			return cmdError(a.cmd, 255, "Invalid --accel-bind specification")
		}
		js.AccelBind = val
	case "compress":
		if compressType(val) == "none" && !strings.EqualFold(val, "none") {
			a.js.Warnings = append(a.js.Warnings, fmt.Sprintf("srun: error: Compression type '%s' unknown, disabling compression support.\n", val))
		}
		js.Compress = val
	case "resv-ports":
		js.ResvPortsSet, js.ResvPorts = true, 0
		if hasVal { // parse_int without "positive": 0 is a count
			n, rest, digits := strtol(val)
			if !digits || rest != "" || n < 0 || n > math.MaxInt32 {
				return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value %q for --resv-port.", val))
			}
			js.ResvPorts = uint32(n)
		}
	case "x11":
		js.X11, js.X11Set = val, true
	case "threads":
		// srun's own fan-out: Orbit's srun bounds its messages itself (launch_fanout.go).
		n, err := parseInt(a.cmd, "--threads", val)
		if err != nil {
			return err
		}
		if n > srunMaxThreads {
			a.js.Warnings = append(a.js.Warnings, fmt.Sprintf("srun: error: Thread value --threads=%d exceeds recommended limit of %d\n", n, srunMaxThreads))
		}
	case "msg-timeout":
		// Slurm's timeout for srun's launch messages; Orbit's srun uses MessageTimeout.
		if _, err := parseInt(a.cmd, "--msg-timeout", val); err != nil {
			return err
		}
	case "prolog":
		js.Prolog = val
	case "epilog":
		js.Epilog = val
	case "task-prolog":
		js.TaskProlog = val
	case "task-epilog":
		js.TaskEpilog = val
	case "pty":
		js.Pty = true
	case "preserve-env":
		js.PreserveEnv = true
	case "relative":
		n, rest, digits := strtol(val)
		if !digits || rest != "" || n < 0 {
			return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value %q for --relative.", val))
		}
		js.Relative = uint32(min(n, math.MaxInt32))
	case "wait-srun":
		n, rest, digits := strtol(val)
		if !digits || rest != "" || n < 0 {
			return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value %q for --wait.", val))
		}
		js.MaxWait = uint32(min(n, math.MaxInt32))
	case "quit-on-interrupt":
		js.QuitOnInterrupt = true
	case "disable-status":
		js.DisableStatus = true
	case "debugger-test":
		js.DebuggerTest = true
	case "no-allocate":
		js.NoAllocate = true
	case "context", "interactive":
		// --context is an SELinux context, which a Slurm built without SELinux support (as
		// Debian's, the reference) accepts and leaves unused; --interactive marks srun's
		// step as salloc's interactive step, which changes nothing a user sees. Both are
		// listed by -v.
	case "cpu-bind", "cpu_bind":
		js.CPUBind, js.CPUBindSet = val, true
		a.memBy["cpu-bind"] = src // a rival of --hint (siteopts.go verifyHint)
	case "exact":
		js.Exact = true
	case "whole":
		js.Whole = true
	case "overlap":
		js.Overlap = true
	case "kill-on-bad-exit":
		js.KillOnBadExit, js.KillOnBadExitSet = 1, true
		if hasVal {
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value \"%s\" for --kill-on-bad-exit.", val))
			}
			js.KillOnBadExit = n
		}
	case "parsable":
		js.Parsable = true
	case "wait":
		js.Wait = true
	case "test-only":
		js.TestOnly = true
	case "get-user-env":
		if hasVal && !validGetUserEnv(val) {
			return cmdError(a.cmd, 255, "Invalid --get-user-env specification")
		}
		js.GetUserEnv = true
	case "ignore-pbs":
		js.IgnorePBS = true
	case "verbose":
		if !hasVal {
			js.Verbose++
			break
		}
		// SBATCH_DEBUG, SLURM_DEBUG, SALLOC_DEBUG: the level itself (Slurm's parse_int).
		n, rest, digits := strtol(val)
		if !digits || rest != "" || n < 0 {
			return cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value %q for --verbose.", val))
		}
		js.Verbose = int(int32(n))
	case "quiet":
		js.Quiet = true
	case "help":
		js.Action = jobspec.ActionHelp
	case "usage":
		js.Action = jobspec.ActionUsage
	case "version":
		js.Action = jobspec.ActionVersion
	case "min-nodes-invasive", "max-nodes-invasive", "min-power", "max-power":
		n, err := strconv.ParseUint(val, 10, 32)
		if err != nil || n >= uint64(jobspec.NoVal) || (n == 0 && strings.HasSuffix(o.ID, "invasive")) {
			return cmdError(a.cmd, 255, fmt.Sprintf("Invalid --%s specification", o.ID))
		}
		switch o.ID {
		case "min-nodes-invasive":
			js.MinNodesInvasive = uint32(n)
		case "max-nodes-invasive":
			js.MaxNodesInvasive = uint32(n)
		case "min-power":
			js.MinPower = uint32(n)
		default:
			js.MaxPower = uint32(n)
		}
	case "immediate", "no-shell", "bell", "no-bell", "kill-command":
		return a.sallocOption(o, val, hasVal) // salloc.go
	case "propagate": // checked by the command, as Slurm's _set_rlimit_env does (compat/rlimits)
		if !hasVal {
			val = "ALL"
		}
		js.Propagate, js.PropagateSet = val, true
	case "node-constraints":
		switch val {
		case "pof2", "even", "odd", "ncube", "none":
			js.NodeConstraints = val
		default:
			return cmdError(a.cmd, 255, "Invalid --node-constraints specification (pof2, even, odd, ncube or none)")
		}
	default:
		if isSiteOption(o.ID) {
			return a.applySite(o, val, src) // siteopts.go
		}
		if isStoredOption(o.ID) {
			return a.applyStored(o, val) // stored.go
		}
		return cmdError(a.cmd, 1, fmt.Sprintf("%s is not supported by Orbit yet", displayName(o)))
	}
	return nil
}

// srunMaxThreads is Slurm's recommended limit for srun -T (SRUN_MAX_THREADS).
const srunMaxThreads = 60

func displayName(o *Option) string {
	if o.Name == "" {
		return o.ID
	}
	return "--" + o.Name
}

// setNodes parses -N min[-max] as Slurm's verify_node_count: k/m suffixes multiply by 1024,
// an empty or negative minimum of a range becomes 1.
func (a *applier) setNodes(arg string) error {
	bad := func(s string) error { return cmdError(a.cmd, 255, fmt.Sprintf("%q is not a valid node count", s)) }
	var lo, hi int64
	if i := strings.IndexByte(arg, '-'); i >= 0 {
		var ok bool
		if lo, ok = strToNodes(arg[:i]); !ok {
			return bad(arg[:i])
		}
		if lo < 0 {
			lo = 1
		}
		if hi, ok = strToNodes(arg[i+1:]); !ok {
			return bad(arg[i+1:])
		}
	} else {
		var ok bool
		if lo, ok = strToNodes(arg); !ok || lo < 0 {
			return bad(arg)
		}
		hi = lo
	}
	if hi != 0 && hi < lo {
		return cmdError(a.cmd, 255, fmt.Sprintf("Maximum node count %d is less than minimum node count %d", hi, lo))
	}
	a.js.MinNodes, a.js.MaxNodes, a.js.NodesSet = uint32(lo), uint32(hi), true
	return nil
}

// strToNodes reads a count with an optional k and then m suffix; "" is -1, as strtol
// without digits gives Slurm's -1. ok is false when anything but white space follows.
func strToNodes(s string) (int64, bool) {
	n, rest, digits := strtol(s)
	if !digits {
		return -1, strings.TrimSpace(s) == ""
	}
	if rest != "" && (rest[0] == 'k' || rest[0] == 'K') {
		n *= 1024
		rest = rest[1:]
	}
	if rest != "" && (rest[0] == 'm' || rest[0] == 'M') {
		n *= 1024 * 1024
		rest = rest[1:]
	}
	n = int64(int32(n)) // Slurm keeps node counts in an int
	return n, strings.TrimSpace(rest) == ""
}

// parseInt is Slurm's parse_int for a positive count: the whole value must be a decimal
// number above zero; the command exits 1.
func parseInt(cmd Cmds, name, val string) (uint32, error) {
	n, rest, digits := strtol(val)
	if !digits || rest != "" || n <= 0 {
		return 0, cmdError(cmd, 1, fmt.Sprintf("Invalid numeric value %q for %s.", val, name))
	}
	if n >= math.MaxInt64 {
		return 0, cmdError(cmd, 1, fmt.Sprintf("Numeric argument (%d) to big for %s.", n, name))
	}
	return uint32(int32(n)), nil
}

// strtol reads like C's strtol(s, &end, 10): leading white space, a sign, digits; it
// saturates on overflow. digits is false when no digit was read (end == s).
func strtol(s string) (n int64, rest string, digits bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v uint64
	over := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v > (math.MaxInt64-uint64(s[i]-'0'))/10 {
			over = true
		} else {
			v = v*10 + uint64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s, false
	}
	n = int64(v)
	if over {
		n = math.MaxInt64
		if neg {
			return math.MinInt64, s[i:], true
		}
	}
	if neg {
		n = -n
	}
	return n, s[i:], true
}

func strtoll(s string) int64 {
	n, _, _ := strtol(s)
	return n
}

func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// parseSignal is Slurm's get_signal_opts: [R][B][:]sig[@secs]; B only for sbatch.
func parseSignal(s string, sbatch bool) (*jobspec.Signal, bool) {
	sig := &jobspec.Signal{Time: 60}
	if len(s) > 0 && (s[0] == 'R' || s[0] == 'r') {
		sig.Reserv, s = true, s[1:]
	}
	if sbatch {
		if len(s) > 0 && (s[0] == 'B' || s[0] == 'b') {
			sig.Batch, s = true, s[1:]
		}
		if len(s) > 0 && (s[0] == 'R' || s[0] == 'r') {
			sig.Reserv, s = true, s[1:]
		}
	}
	s = strings.TrimPrefix(s, ":")
	name, at, hasAt := strings.Cut(s, "@")
	num := sigNameToNum(name) & 0xffff
	if num < 1 {
		return nil, false
	}
	sig.Number = num
	if !hasAt {
		return sig, true
	}
	t, rest, _ := strtol(at)
	if t < 0 || t > 0xffff || rest != "" {
		return nil, false
	}
	sig.Time = int(t)
	return sig, true
}

var signalNumbers = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ABRT": 6, "KILL": 9, "ALRM": 14, "TERM": 15,
	"USR1": 10, "USR2": 12, "URG": 23, "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22,
}

// sigNameToNum is Slurm's sig_name2num: a number, or a name with or without "SIG".
func sigNameToNum(s string) int {
	if n, rest, digits := strtol(s); digits {
		if strings.TrimSpace(rest) == "" {
			return int(n)
		}
		return 0
	}
	for isSpaceStr(s) {
		s = s[1:]
	}
	u := strings.ToUpper(s)
	u = strings.TrimPrefix(u, "SIG")
	return signalNumbers[strings.TrimSpace(u)]
}

func isSpaceStr(s string) bool { return s != "" && isSpace(s[0]) }

// validGetUserEnv checks --get-user-env's "<timeout>[S|L]" as Slurm's strtol-based setter
// does: optional blanks and sign, digits (none reads as 0), then nothing or a mode letter, anything after the
// letter ignored.
func validGetUserEnv(v string) bool {
	i := 0
	for i < len(v) && strings.IndexByte(" \t\n\v\f\r", v[i]) >= 0 {
		i++
	}
	if i < len(v) && (v[i] == '+' || v[i] == '-') {
		i++
	}
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	return i == len(v) || strings.IndexByte("sSlL", v[i]) >= 0
}

// compressType is srun --compress's type as Slurm 22.05's Debian build knows them: lz4 (also
// the type of a bare --compress) or none; zlib and anything else is none.
func compressType(val string) string {
	if val == "" || strings.EqualFold(val, "lz4") {
		return "lz4"
	}
	return "none"
}
