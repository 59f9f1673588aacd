package options

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// The list of defined options that sbatch, srun and salloc print at -v once their options
// are checked (Slurm 22.05's slurm_print_set_options): every option given on the command
// line, in a #SBATCH directive or by an input environment variable, in the order of Slurm's
// option table, each with the value Slurm's getter for it prints. The values are Slurm's
// fields after its checks, not the arguments: a relative --output made absolute, --nodes
// clipped to the task count, --gres with "gres:" added.

// nullText is how Slurm's printf shows a getter's NULL.
const nullText = "(null)"

// DefinedOptions returns the block the command of js prints on stderr at -v once its
// options are checked, or "" where Slurm's command prints none: without -v, for --help,
// --usage and --version, and where it stops before (-v with -Q, srun without a command).
func DefinedOptions(js *jobspec.JobSpec) string {
	if js == nil || js.Verbose <= 0 || js.Quiet || js.Action != jobspec.ActionSubmit {
		return ""
	}
	if js.Command == jobspec.Srun && (js.MPI == "list" || len(js.Argv) == 0 && !js.TestOnly) {
		return ""
	}
	d := &dump{js: js}
	prog := string(js.Command)
	var b strings.Builder
	line := func(s string) { b.WriteString(prog + ": " + s + "\n") }
	line("defined options")
	line("-------------------- --------------------")
	for _, r := range definedRows {
		o, ok := d.last(r.ids...)
		if !ok {
			continue
		}
		name, val := r.name, nullText
		if name == "" {
			name = nullText // Slurm's rows for environment-only options have no name
		}
		if r.get != nil {
			val = r.get(d, o)
		} else if o.HasVal {
			val = o.Value
		}
		if d.unset(r.name) {
			continue
		}
		line(fmt.Sprintf("%-20s: %s", name, val))
	}
	line("-------------------- --------------------")
	line("end of defined options")
	return b.String()
}

// definedRow is one row of Slurm's option table: the name it prints, the Orbit option IDs
// that set it, and its getter. A row without IDs is one Orbit never sets (the alias rows
// Slurm's lookup never reaches, the data-only rows); a row without a getter is an option
// Orbit refuses before the list is printed, shown with its argument.
type definedRow struct {
	name string // "" for Slurm's unnamed, environment-only rows
	ids  []string
	get  func(d *dump, o jobspec.DefinedOption) string
}

func row(name string, get func(*dump, jobspec.DefinedOption) string, ids ...string) definedRow {
	if len(ids) == 0 {
		ids = []string{name}
	}
	return definedRow{name: name, ids: ids, get: get}
}

// never is a row Slurm has that no option of Orbit's sets.
func never(name string) definedRow { return definedRow{name: name} }

// definedRows is Slurm 22.05's common_options[] in its order.
var definedRows = []definedRow{
	row("accel-bind", raw),
	row("account", raw),
	row("acctg-freq", raw),
	row("", raw, "alloc-nodelist"), // SLURM_JOB_NODELIST
	row("array", raw),
	never("argv"),
	row("batch", raw),
	row("bcast", func(d *dump, o jobspec.DefinedOption) string { // arg_get_bcast
		if d.js.Bcast == "" {
			return "set"
		}
		return d.js.Bcast
	}),
	row("bcast-exclude", raw),
	row("begin", func(d *dump, _ jobspec.DefinedOption) string { return d.timeStr(d.js.Begin) }),
	row("bell", bell),
	row("bb", raw),
	row("bbf", func(d *dump, o jobspec.DefinedOption) string {
		if d.js.Command == jobspec.Sbatch {
			return o.Value
		}
		return nullText // salloc and srun read the file into --bb and forget its name
	}),
	row("cluster-constraint", raw),
	row("chdir", func(d *dump, o jobspec.DefinedOption) string { return absolute(o.Value, d.js.SubmitDir) }),
	row("cluster", raw),
	row("clusters", raw),
	row("comment", raw),
	row("compress", func(d *dump, _ jobspec.DefinedOption) string { return compressType(d.js.Compress) }),
	row("container", raw),
	row("context", raw),
	row("contiguous", set),
	row("constraint", raw),
	row("core-spec", coreSpec),
	row("cores-per-socket", func(d *dump, _ jobspec.DefinedOption) string { return cInt(d.js.Site.CoresPerSocket) }),
	row("cpu-bind", cpuBind, "cpu-bind", "cpu_bind"),
	never("cpu_bind"), // Slurm finds --cpu_bind's value in the cpu-bind row
	row("cpu-freq", func(d *dump, _ jobspec.DefinedOption) string { return orNull(d.js.Site.CPUFreq) }),
	row("cpus-per-gpu", intArg),
	row("cpus-per-task", intArg),
	row("deadline", func(d *dump, _ jobspec.DefinedOption) string { return d.timeStr(d.js.Deadline) }),
	row("debugger-test", set),
	row("delay-boot", func(d *dump, _ jobspec.DefinedOption) string { return secsText(d.js.Site.DelayBoot) }),
	never("environment"),
	row("dependency", raw),
	row("disable-status", set),
	row("distribution", distribution),
	row("epilog", raw),
	row("error", ioFile),
	row("exact", set),
	row("exclude", func(d *dump, o jobspec.DefinedOption) string {
		if strings.Contains(o.Value, "/") {
			return orNull(d.js.Exclude) // the names read from the file
		}
		return o.Value
	}),
	row("exclusive", exclusive),
	row("export", raw),
	row("export-file", raw),
	row("extra-node-info", extraNodeInfo),
	row("get-user-env", getUserEnv),
	row("gid", func(d *dump, _ jobspec.DefinedOption) string { return strconv.FormatUint(uint64(d.js.GID), 10) }),
	row("gpu-bind", raw),
	row("gpu-freq", raw),
	row("gpus", raw),
	row("gpus-per-node", raw),
	row("gpus-per-socket", raw),
	row("gpus-per-task", raw),
	row("gres", gres),
	row("gres-flags", func(_ *dump, o jobspec.DefinedOption) string { return strings.ToLower(o.Value) }),
	never("help"), // exits at once
	row("het-group", nil, "het-group", "pack-group"),
	row("hint", raw),
	row("hold", set),
	row("ignore-pbs", set),
	row("immediate", immediate),
	row("input", ioFile),
	row("interactive", set),
	row("jobid", intArg),
	row("job-name", raw),
	row("kill-command", killCommand),
	row("kill-on-bad-exit", func(_ *dump, o jobspec.DefinedOption) string {
		if !o.HasVal {
			return "1"
		}
		return intArg(nil, o)
	}),
	row("kill-on-invalid-dep", func(d *dump, _ jobspec.DefinedOption) string {
		return [...]string{"unset", "yes", "no"}[d.js.KillInvalidDep]
	}),
	row("label", set),
	row("licenses", raw),
	row("mail-type", func(d *dump, _ jobspec.DefinedOption) string { return jobspec.MailTypeString(d.js.MailType) }),
	row("mail-user", raw),
	row("threads", intArg),
	row("mcs-label", raw),
	row("mem", mbytes),
	row("mem-bind", func(d *dump, _ jobspec.DefinedOption) string {
		if d.js.Site.MemBind == "" {
			return "unset"
		}
		return d.js.Site.MemBind
	}),
	row("mem-per-cpu", mbytes),
	row("mem-per-gpu", mbytes),
	row("mincpus", minCPUs),
	row("mpi", raw),
	row("msg-timeout", intArg),
	row("multi-prog", set),
	row("network", raw),
	row("nice", func(d *dump, _ jobspec.DefinedOption) string { return fmt.Sprint(d.js.Nice) }),
	row("no-allocate", set),
	row("no-bell", bell),
	row("no-kill", func(_ *dump, o jobspec.DefinedOption) string {
		if !o.HasVal || strings.EqualFold(o.Value, "set") {
			return "set"
		}
		return "unset" // --no-kill=off or =no
	}),
	row("no-shell", set),
	row("no-requeue", requeue),
	row("nodefile", func(d *dump, o jobspec.DefinedOption) string {
		if f, _ := d.last("nodelist", "nodefile"); f.ID == "nodelist" {
			return nullText // a later --nodelist forgets the file
		}
		return o.Value
	}),
	row("nodelist", nodelist),
	row("nodes", nodes),
	row("ntasks", intArg),
	row("ntasks-per-core", func(d *dump, _ jobspec.DefinedOption) string { return cInt(d.js.Site.NTasksPerCore) }),
	row("ntasks-per-gpu", intArg),
	row("ntasks-per-node", intArg, "ntasks-per-node", "tasks-per-node"),
	row("ntasks-per-socket", intArg),
	row("ntasks-per-tres", nil),
	row("open-mode", func(_ *dump, o jobspec.DefinedOption) string { return strings.ToLower(o.Value[:1]) }),
	row("output", ioFile),
	row("overcommit", set),
	row("overlap", overlap),
	row("oversubscribe", exclusive),
	never("pack-group"), // Slurm finds --pack-group's value in the het-group row
	row("parsable", set),
	row("partition", raw),
	row("power", func(d *dump, _ jobspec.DefinedOption) string {
		if d.js.Stored.PowerFlags&jobspec.PowerLevel != 0 {
			return "LEVEL"
		}
		return "unset"
	}),
	row("prefer", raw),
	row("preserve-env", set),
	row("priority", func(d *dump, _ jobspec.DefinedOption) string { return cInt(d.js.Priority) }),
	row("profile", func(d *dump, _ jobspec.DefinedOption) string { return d.js.Site.Profile }),
	row("prolog", raw),
	row("propagate", func(_ *dump, o jobspec.DefinedOption) string {
		if !o.HasVal {
			return "ALL"
		}
		return o.Value
	}),
	row("pty", set),
	row("qos", raw),
	row("quiet", func(*dump, jobspec.DefinedOption) string { return "1" }), // with -v an error before the list
	row("quit-on-interrupt", set),
	row("reboot", set),
	row("relative", intArg),
	row("requeue", requeue),
	row("reservation", raw),
	row("resv-ports", func(d *dump, _ jobspec.DefinedOption) string { return fmt.Sprint(d.js.ResvPorts) }),
	row("send-libs", func(d *dump, _ jobspec.DefinedOption) string {
		if d.js.SendLibs {
			return "set"
		}
		return "unset"
	}),
	row("signal", func(d *dump, _ jobspec.DefinedOption) string { return signalText(d.js.Signal) }),
	row("slurmd-debug", func(d *dump, _ jobspec.DefinedOption) string { return loglevel.Name(d.js.SlurmdDebug) }),
	row("sockets-per-node", func(d *dump, _ jobspec.DefinedOption) string { return cInt(d.js.Site.SocketsPerNode) }),
	row("spread-job", set),
	row("", func(d *dump, _ jobspec.DefinedOption) string { // SBATCH_REQ_SWITCH and the like
		if req, _ := d.switches(); req != -1 {
			return fmt.Sprint(req)
		}
		return "unset"
	}, "switch-req"),
	row("", func(d *dump, _ jobspec.DefinedOption) string { // SBATCH_WAIT4SWITCH and the like
		_, wait := d.switches()
		return secsText(uint32(wait))
	}, "switch-wait"),
	row("switches", func(d *dump, _ jobspec.DefinedOption) string {
		req, wait := d.switches()
		switch {
		case wait != -1:
			return fmt.Sprintf("%d@%s", req, secsText(uint32(wait)))
		case req != -1:
			return fmt.Sprint(req)
		}
		return "unset"
	}),
	row("task-epilog", raw),
	row("task-prolog", raw),
	never("tasks-per-node"), // Slurm finds --tasks-per-node's value in the ntasks-per-node row
	row("test-only", set),
	row("thread-spec", threadSpec),
	row("threads-per-core", func(d *dump, _ jobspec.DefinedOption) string { return cInt(d.js.Site.ThreadsPerCore) }),
	row("time", func(d *dump, _ jobspec.DefinedOption) string { return minsText(d.js.TimeLimit) }),
	row("time-min", func(d *dump, _ jobspec.DefinedOption) string { return minsText(d.js.TimeMin) }),
	row("tmp", mbytes),
	row("uid", func(d *dump, _ jobspec.DefinedOption) string { return strconv.FormatUint(uint64(d.js.UID), 10) }),
	row("unbuffered", set),
	row("use-min-nodes", set),
	row("verbose", func(d *dump, _ jobspec.DefinedOption) string { return fmt.Sprint(d.js.Verbose) }),
	never("version"), // exits at once
	row("", nil, "umask"),
	never("usage"), // exits at once
	row("wait", set),
	row("wait-all-nodes", func(d *dump, _ jobspec.DefinedOption) string { return fmt.Sprint(uint16(d.js.WaitAllNodes)) }),
	row("wait", intArg, "wait-srun"),
	row("wckey", raw),
	row("whole", set),
	row("wrap", raw),
	row("x11", nil),
}

// dump is the state the getters read: the spec after the command's checks and the record of
// what was given.
type dump struct {
	js *jobspec.JobSpec
}

// last returns the most recently set of the options ids (Slurm keeps one field for them).
func (d *dump) last(ids ...string) (jobspec.DefinedOption, bool) {
	for i := len(d.js.Defined) - 1; i >= 0; i-- {
		for _, id := range ids {
			if d.js.Defined[i].ID == id {
				return d.js.Defined[i], true
			}
		}
	}
	return jobspec.DefinedOption{}, false
}

func (d *dump) isSet(id string) bool { _, ok := d.js.DefinedValue(id); return ok }

// unset says whether Slurm's checks reset row name after the options were read, so it is not
// listed: srun drops an --ntasks-per-node that does not divide the tasks over the nodes.
func (d *dump) unset(name string) bool {
	if name != "ntasks-per-node" || d.js.Command != jobspec.Srun {
		return false
	}
	lo, _, ntasks, adjusted := d.nodeCounts()
	npn := int32(d.js.NTasksPerNode)
	return adjusted && lo != 0 && npn != ntasks/lo
}

func raw(_ *dump, o jobspec.DefinedOption) string { return o.Value }

func set(*dump, jobspec.DefinedOption) string { return "set" }

func orNull(s string) string {
	if s == "" {
		return nullText
	}
	return s
}

// cInt prints a count as Slurm's "%d" of an int does: unset (NO_VAL) is -2.
func cInt(v uint32) string { return fmt.Sprint(int32(v)) }

// intArg is a count read with Slurm's parse_int: the number as an int.
func intArg(_ *dump, o jobspec.DefinedOption) string {
	n, _, _ := strtol(o.Value)
	return fmt.Sprint(int32(n))
}

// absolute is Slurm's make_full_path for --chdir and _fullpath for sbatch's files.
func absolute(p, dir string) string {
	if p == "" || p[0] == '/' {
		return p
	}
	return dir + "/" + p
}

// ioFile is --output, --error or --input: "none" is /dev/null, and sbatch makes the name
// absolute against the working directory.
func ioFile(d *dump, o jobspec.DefinedOption) string {
	v := o.Value
	if strings.EqualFold(v, "none") {
		v = "/dev/null"
	}
	if d.js.Command == jobspec.Sbatch {
		v = absolute(v, d.js.WorkDir)
	}
	return v
}

// mbytes is a memory size as Slurm's mbytes_to_str prints it.
func mbytes(_ *dump, o jobspec.DefinedOption) string {
	mb, err := memsize.ParseMB(o.Value)
	if err != nil || mb == memsize.NoVal64 {
		return nullText
	}
	return memsize.MbytesToStr(mb)
}

// minsText is Slurm's mins2time_str.
func minsText(m uint32) string {
	if m == jobspec.Infinite {
		return "UNLIMITED"
	}
	return slurmtime.FormatElapsed(int64(m) * 60)
}

// secsText is Slurm's secs2time_str of a count of seconds held in an int.
func secsText(s uint32) string {
	if s == jobspec.Infinite {
		return "UNLIMITED"
	}
	return slurmtime.FormatElapsed(int64(int32(s)))
}

// timeStr is Slurm's slurm_make_time_str: SLURM_TIME_FORMAT, else 2006-01-02T15:04:05.
func (d *dump) timeStr(t time.Time) string {
	v, _ := getenv(d.js.Env, "SLURM_TIME_FORMAT")
	f, _ := slurmtime.ParseTimeFormat(v)
	return f.Format(t, time.Now())
}

// bell is salloc's --bell or --no-bell, whichever came last.
func bell(d *dump, _ jobspec.DefinedOption) string {
	if o, _ := d.last("bell", "no-bell"); o.ID == "no-bell" {
		return "bell-never"
	}
	return "bell-always"
}

// requeue is sbatch's --requeue or --no-requeue, whichever came last.
func requeue(d *dump, _ jobspec.DefinedOption) string {
	if o, _ := d.last("requeue", "no-requeue"); o.ID == "no-requeue" {
		return "no-requeue"
	}
	return "requeue"
}

// exclusive is the sharing request --exclusive[=how] and --oversubscribe share.
func exclusive(d *dump, _ jobspec.DefinedOption) string {
	o, _ := d.last("exclusive", "oversubscribe")
	if o.ID == "oversubscribe" {
		return "oversubscribe"
	}
	if !o.HasVal || strings.EqualFold(o.Value, "exclusive") {
		return "exclusive"
	}
	return strings.ToLower(o.Value)
}

// overlap is srun's step sharing: --exclusive turns it off, --oversubscribe and --overlap on.
func overlap(d *dump, _ jobspec.DefinedOption) string {
	excl := true
	for _, o := range d.js.Defined {
		switch o.ID {
		case "exclusive":
			if !o.HasVal || strings.EqualFold(o.Value, "exclusive") {
				excl = true // --exclusive=user and the like leave the step's sharing alone
			}
		case "oversubscribe", "overlap":
			excl = false
		}
	}
	if excl {
		return "unset"
	}
	return "set"
}

// coreSpec and threadSpec share Slurm's core_spec field: the later one wins, the other
// reads "unset".
func coreSpec(d *dump, _ jobspec.DefinedOption) string {
	o, _ := d.last("core-spec", "thread-spec")
	if o.ID != "core-spec" {
		return "unset"
	}
	n, _, _ := strtol(o.Value)
	return fmt.Sprint(uint16(n))
}

func threadSpec(d *dump, _ jobspec.DefinedOption) string {
	o, _ := d.last("core-spec", "thread-spec")
	if o.ID != "thread-spec" {
		return "unset"
	}
	n, _, _ := strtol(o.Value)
	return fmt.Sprint(uint16(n) &^ 0x8000)
}

// cpuBind is srun's --cpu-bind as its check leaves it: the map or mask list, nothing for
// none or rank, else the text as given.
func cpuBind(_ *dump, o jobspec.DefinedOption) string {
	b, _, _ := VerifyCPUBind(o.Value, "")
	return orNull(b.List)
}

// distribution is Slurm's set_distribution, with the plane size.
func distribution(d *dump, _ jobspec.DefinedOption) string {
	s := d.js.Site
	if s.Distribution == "plane" {
		return fmt.Sprintf("plane=%d", s.PlaneSize)
	}
	return orNull(s.Distribution)
}

// extraNodeInfo is -B as sockets[:cores[:threads]] of the node-shape requests.
func extraNodeInfo(d *dump, _ jobspec.DefinedOption) string {
	s := d.js.Site
	var b strings.Builder
	if s.SocketsPerNode != jobspec.NoVal {
		fmt.Fprintf(&b, "%d", int32(s.SocketsPerNode))
	}
	if s.CoresPerSocket != jobspec.NoVal {
		fmt.Fprintf(&b, ":%d", int32(s.CoresPerSocket))
	}
	if s.ThreadsPerCore != jobspec.NoVal {
		fmt.Fprintf(&b, ":%d", int32(s.ThreadsPerCore))
	}
	if b.Len() == 0 {
		return "unset"
	}
	return b.String()
}

// getUserEnv is --get-user-env[=timeout[S|L]]: the timeout (0 without a value) and the mode.
func getUserEnv(_ *dump, o jobspec.DefinedOption) string {
	if !o.HasVal {
		return "0"
	}
	n, rest, _ := strtol(o.Value)
	if rest != "" {
		switch rest[0] {
		case 's', 'S':
			return fmt.Sprintf("%dS", int32(n))
		case 'l', 'L':
			return fmt.Sprintf("%dL", int32(n))
		}
	}
	return fmt.Sprint(int32(n))
}

// gres is Slurm's gres_prepend_tres_type: "gres:" before each item, "none" as given.
func gres(_ *dump, o jobspec.DefinedOption) string {
	if strings.EqualFold(o.Value, "none") {
		return o.Value
	}
	v := strings.ReplaceAll("gres:"+o.Value, ",", ",gres:")
	return strings.ReplaceAll(v, "gres:gres:", "gres:")
}

// immediate is -I[seconds]: one second without a value.
func immediate(_ *dump, o jobspec.DefinedOption) string {
	if !o.HasVal {
		return "1"
	}
	return intArg(nil, o)
}

// killCommand is salloc's -K[signal]: SIGTERM without a value.
func killCommand(_ *dump, o jobspec.DefinedOption) string {
	if !o.HasVal {
		return "TERM"
	}
	return sigName(signalNumber(o.Value))
}

// minCPUs is --mincpus, raised to --cpus-per-task as the commands' checks raise it.
func minCPUs(d *dump, o jobspec.DefinedOption) string {
	n, _, _ := strtol(o.Value)
	pn := int32(n)
	if c, ok := d.js.DefinedValue("cpus-per-task"); ok {
		if cpt, _, _ := strtol(c.Value); pn < int32(cpt) {
			pn = int32(cpt)
		}
	}
	return fmt.Sprint(pn)
}

// nodelist is --nodelist, or the hosts read from a file when --nodefile came later or the
// list names a file.
func nodelist(d *dump, o jobspec.DefinedOption) string {
	if f, ok := d.last("nodelist", "nodefile"); ok && f.ID == "nodefile" || strings.Contains(o.Value, "/") {
		return orNull(d.js.NodeList)
	}
	if a, err := hostlist.Count(o.Value); err == nil {
		if b, err := hostlist.Count(d.js.NodeList); err == nil && a != b {
			return d.js.NodeList // cut to the node or task count
		}
	}
	return o.Value
}

// nodes is --nodes as min-max, or min when they are equal, after the commands' checks.
func nodes(d *dump, _ jobspec.DefinedOption) string {
	lo, hi, _, _ := d.nodeCounts()
	if lo != hi {
		return fmt.Sprintf("%d-%d", lo, hi)
	}
	return fmt.Sprint(lo)
}

// nodeCounts is the node range and task count as the commands' checks leave them ("massage
// the numbers"): at least as many nodes as --nodelist names, and with a task count no more
// nodes than tasks. adjusted says the task count was known and checked against the nodes.
func (d *dump) nodeCounts() (lo, hi, ntasks int32, adjusted bool) {
	js := d.js
	lo, hi = int32(js.MinNodes), int32(js.MaxNodes)
	nodesSet := d.isSet("nodes")
	if !nodesSet {
		lo, hi = 1, 0
	}
	if js.NodeList != "" {
		if names, err := hostlist.Expand(js.NodeList); err == nil {
			n := int32(len(uniq(names)))
			if nodesSet {
				lo = max(lo, n)
			} else {
				lo = n
			}
			nodesSet = true
		}
	}
	t, ntasksSet := d.js.DefinedValue("ntasks")
	if ntasksSet {
		n, _, _ := strtol(t.Value)
		ntasks = int32(n)
	}
	npn := int32(js.NTasksPerNode)
	if js.Command != jobspec.Srun && js.NTasksPerNode != jobspec.NoVal && npn > 0 && !ntasksSet &&
		(js.Command == jobspec.Salloc || hi == 0 || lo == hi) {
		ntasks, ntasksSet = lo*npn, true
	}
	if !nodesSet || !ntasksSet {
		return lo, hi, ntasks, false
	}
	if ntasks < hi {
		hi = ntasks
	}
	switch {
	case js.Command != jobspec.Srun:
		if ntasks < lo {
			lo, hi = ntasks, ntasks
		}
	case ntasks < lo && ntasks > 0:
		// srun sets -N again to the task count, which makes the range a single count.
		lo, hi = ntasks, ntasks
	}
	return lo, hi, ntasks, true
}

func uniq(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// switches is --switches and its environment-only halves (the count, the wait): each sets
// its part of the two fields they share. -1 is unset.
func (d *dump) switches() (req, wait int32) {
	req, wait = -1, -1
	secs := func(s string) int32 {
		v, err := slurmtime.ParseTimeLimitSecs(s)
		if err != nil {
			v = jobspec.NoVal // Slurm's time_str2secs fails with NO_VAL
		}
		return int32(v)
	}
	for _, o := range d.js.Defined {
		switch o.ID {
		case "switches":
			count, w, hasWait := strings.Cut(o.Value, "@")
			if hasWait {
				wait = secs(w)
			}
			n, _, _ := strtol(count)
			req = int32(n)
		case "switch-req":
			n, _, _ := strtol(o.Value)
			req = int32(n)
		case "switch-wait":
			wait = secs(o.Value)
		}
	}
	return req, wait
}

// signalText is Slurm's signal_opts_to_cmdline: [R][B]:name[@time], the time only when it
// is not the default 60 seconds.
func signalText(s *jobspec.Signal) string {
	if s == nil {
		return nullText
	}
	var b strings.Builder
	if s.Reserv {
		b.WriteString("R")
	}
	if s.Batch {
		b.WriteString("B")
	}
	if s.Reserv || s.Batch {
		b.WriteString(":")
	}
	b.WriteString(sigName(s.Number))
	if s.Time != 60 {
		fmt.Fprintf(&b, "@%d", s.Time)
	}
	return b.String()
}

// sigName is Slurm's sig_num2name: the names it knows, else the number.
func sigName(n int) string {
	names := map[int]string{1: "HUP", 2: "INT", 3: "QUIT", 6: "ABRT", 9: "KILL", 14: "ALRM", 15: "TERM",
		10: "USR1", 12: "USR2", 23: "URG", 18: "CONT", 19: "STOP", 20: "TSTP", 21: "TTIN", 22: "TTOU", 24: "XCPU"}
	if s, ok := names[n]; ok {
		return s
	}
	return fmt.Sprint(n)
}
