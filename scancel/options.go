package main

import (
	"fmt"
	"io"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

type action int

const (
	actCancel action = iota
	actHelp
	actUsage
	actVersion
)

// params is one scancel invocation.
type params struct {
	action  action
	jobs    []target
	signal  int32 // 0 = cancel
	flags   uint16
	verbose int

	user     string
	uid      uint32
	userSet  bool
	name     string
	state    states.JobState
	stateSet bool
	part     string
}

// target is one job, array task ("id_task") or whole array to signal.
type target struct {
	id   uint32
	task uint32 // wire.NoVal: the job itself / every task
}

func (t target) String() string {
	if t.task == wire.NoVal {
		return strconv.FormatUint(uint64(t.id), 10)
	}
	return fmt.Sprintf("%d_%d", t.id, t.task)
}

var opts = []cmdclient.Opt{
	{Long: "account", Short: 'A', Arg: cmdclient.RequiredArg},
	{Long: "batch", Short: 'b'},
	{Long: "ctld"},
	{Long: "clusters", Short: 'M', Arg: cmdclient.RequiredArg},
	{Long: "cron"},
	{Long: "full", Short: 'f'},
	{Long: "help"},
	{Long: "hurry", Short: 'H'},
	{Long: "interactive", Short: 'i'},
	{Long: "name", Short: 'n', Arg: cmdclient.RequiredArg},
	{Long: "nodelist", Short: 'w', Arg: cmdclient.RequiredArg},
	{Long: "partition", Short: 'p', Arg: cmdclient.RequiredArg},
	{Long: "qos", Short: 'q', Arg: cmdclient.RequiredArg},
	{Long: "quiet", Short: 'Q'},
	{Long: "reservation", Short: 'R', Arg: cmdclient.RequiredArg},
	{Long: "sibling", Arg: cmdclient.RequiredArg},
	{Long: "signal", Short: 's', Arg: cmdclient.RequiredArg},
	{Long: "state", Short: 't', Arg: cmdclient.RequiredArg},
	{Long: "usage"},
	{Long: "user", Short: 'u', Arg: cmdclient.RequiredArg},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "wckey", Arg: cmdclient.RequiredArg},
}

func parseArgs(argv []string, stderr io.Writer) (*params, int) {
	p := &params{}
	prog := "scancel"
	if len(argv) > 0 {
		prog = argv[0]
	}
	found, operands, err := cmdclient.Getopt(prog, argv[1:], opts)
	if err != nil {
		fmt.Fprintf(stderr, "%v\nTry \"scancel --help\" for more information\n", err)
		return nil, 1
	}
	fail := func(format string, a ...any) (*params, int) {
		fmt.Fprintf(stderr, "scancel: error: "+format+"\n", a...)
		return nil, 1
	}
	for _, f := range found {
		switch f.Opt.Long {
		case "batch":
			p.flags |= wire.KillBatchOnly
		case "full":
			p.flags |= wire.KillFullJob
		case "help":
			p.action = actHelp
			return p, 0
		case "usage":
			p.action = actUsage
			return p, 0
		case "version":
			p.action = actVersion
			return p, 0
		case "name":
			p.name = f.Value
		case "partition":
			p.part = f.Value
		case "quiet":
		case "signal":
			sig, ok := parseSignal(f.Value)
			if !ok {
				fmt.Fprintf(stderr, "Unknown job signal: %s\n", f.Value)
				return nil, 1
			}
			p.signal = sig
		case "state":
			st, ok := states.ParseJobState(f.Value)
			if !ok || !(st == states.JobPending || st == states.JobRunning || st == states.JobSuspended) {
				fmt.Fprintf(stderr, "Invalid job state specified: %s\nValid job states are PENDING, RUNNING, and SUSPENDED\n", f.Value)
				return nil, 1
			}
			p.state, p.stateSet = st, true
		case "user":
			uid, ok := lookupUser(f.Value)
			if !ok {
				return fail("Invalid user name: %s", f.Value)
			}
			p.user, p.uid, p.userSet = f.Value, uid, true
		case "verbose":
			p.verbose++
		default:
			return fail("option --%s is not supported by Orbit yet", f.Opt.Long)
		}
	}
	for _, op := range operands {
		t, ok := parseTarget(op)
		if !ok {
			return fail("Invalid job id %s", op)
		}
		p.jobs = append(p.jobs, t)
	}
	if len(p.jobs) == 0 && !p.hasFilter() {
		return fail("No job identification provided")
	}
	return p, -1
}

// parseTarget parses one job id operand: "id", "id_task" or "id_[tasks]" (only the first two
// so far; job steps "id.step" are refused as invalid until steps exist).
func parseTarget(s string) (target, bool) {
	idStr, taskStr, hasTask := strings.Cut(s, "_")
	id, err := strconv.ParseUint(idStr, 10, 32)
	if err != nil || id == 0 || id >= uint64(wire.NoVal) {
		return target{}, false
	}
	t := target{id: uint32(id), task: wire.NoVal}
	if hasTask {
		task, err := strconv.ParseUint(taskStr, 10, 32)
		if err != nil || task >= uint64(wire.NoVal) {
			return target{}, false
		}
		t.task = uint32(task)
	}
	return t, true
}

// signalNames are the names scancel accepts (with or without "SIG"), as sig_name2num knows
// them.
var signalNames = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT, "ABRT": syscall.SIGABRT,
	"KILL": syscall.SIGKILL, "ALRM": syscall.SIGALRM, "TERM": syscall.SIGTERM, "USR1": syscall.SIGUSR1,
	"USR2": syscall.SIGUSR2, "URG": syscall.SIGURG, "CONT": syscall.SIGCONT, "STOP": syscall.SIGSTOP,
	"TSTP": syscall.SIGTSTP, "TTIN": syscall.SIGTTIN, "TTOU": syscall.SIGTTOU,
}

// parseSignal accepts a signal number or name (KILL, SIGKILL, any case).
func parseSignal(s string) (int32, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return int32(n), n > 0 && n < 65
	}
	name := strings.ToUpper(s)
	name = strings.TrimPrefix(name, "SIG")
	sig, ok := signalNames[name]
	return int32(sig), ok
}

func lookupUser(name string) (uint32, bool) {
	if u, err := user.Lookup(name); err == nil {
		if id, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			return uint32(id), true
		}
	}
	if id, err := strconv.ParseUint(name, 10, 32); err == nil {
		if _, err := user.LookupId(name); err == nil {
			return uint32(id), true
		}
	}
	return 0, false
}

func (p *params) hasFilter() bool {
	return p.userSet || p.name != "" || p.stateSet || p.part != ""
}

// resolve picks the jobs the filters select; job ids given as operands narrow them further.
// Only jobs that have not finished are candidates.
func (p *params) resolve(jobs []wire.JobInfo) []target {
	var out []target
	for i := range jobs {
		j := &jobs[i]
		st := states.JobState(j.State)
		if st.IsFinished() || st.IsCompleting() {
			continue
		}
		if p.userSet && j.UserID != p.uid {
			continue
		}
		if p.name != "" && j.Name != p.name {
			continue
		}
		if p.part != "" && j.Partition != p.part {
			continue
		}
		if p.stateSet && st.Base() != p.state {
			continue
		}
		t := target{id: j.JobID, task: wire.NoVal}
		if len(p.jobs) > 0 && !slices.ContainsFunc(p.jobs, func(w target) bool {
			if w.task == wire.NoVal {
				return w.id == j.JobID || (j.ArrayJobID != 0 && w.id == j.ArrayJobID)
			}
			return j.ArrayJobID == w.id && j.ArrayTaskID == w.task
		}) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// filterText names the filters in scancel's "No active jobs match" message.
func (p *params) filterText() string {
	var b strings.Builder
	if p.name != "" {
		fmt.Fprintf(&b, "job_name=%s ", p.name)
	}
	if p.part != "" {
		fmt.Fprintf(&b, "partition=%s ", p.part)
	}
	if p.stateSet {
		fmt.Fprintf(&b, "state=%s ", p.state)
	}
	if p.userSet {
		fmt.Fprintf(&b, "user_name=%s ", p.user)
	}
	return b.String()
}

// verb is what -v says it does to each job.
func (p *params) verb() string {
	if p.signal == 0 {
		return "Terminating job"
	}
	return fmt.Sprintf("Signal %d to job", p.signal)
}
