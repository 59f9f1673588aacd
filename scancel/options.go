package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
)

// noSignal is Slurm's NO_VAL16 for --signal: no signal given, so the job is cancelled.
const noSignal = 0xfffe

// params is one scancel invocation (Slurm's opt_t).
type params struct {
	info        cmdclient.Info
	targets     []target
	raw         []string // the operands, split at commas, as the no-filter path sends them
	signal      uint16   // noSignal: cancel
	batch, full bool
	hurry       bool
	interactive bool
	verbose     int // -1 with --quiet
	account     string
	name        string
	nodelist    string
	partition   string
	qos         string
	reservation string
	state       states.JobState
	stateSet    bool
	userName    string
	uid         uint32
	wckey       string
	sibling     string
}

// opts is scancel's getopt_long table in Slurm 22.05's order.
var opts = []cmdclient.Opt{
	{Long: "account", Short: 'A', Arg: cmdclient.RequiredArg},
	{Long: "batch", Short: 'b'},
	{Long: "ctld"},
	{Long: "full", Short: 'f'},
	{Long: "help"},
	{Long: "hurry", Short: 'H'},
	{Long: "interactive", Short: 'i'},
	{Long: "cluster", Short: 'M', Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "clusters", Arg: cmdclient.RequiredArg, Val: "M"},
	{Long: "jobname", Short: 'n', Arg: cmdclient.RequiredArg, Val: "n"},
	{Long: "me"},
	{Long: "name", Arg: cmdclient.RequiredArg, Val: "n"},
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

// parseArgs reads SCANCEL_* and the command line. code is -1 to go on, or the exit status
// (after help/usage/version, or an error already printed).
func parseArgs(argv []string, getenv func(string) (string, bool), stderr io.Writer) (*params, int) {
	p := &params{signal: noSignal}
	prog := "scancel"
	if len(argv) > 0 {
		prog = argv[0]
	}
	fail := func(format string, a ...any) (*params, int) {
		fmt.Fprintf(stderr, "scancel: error: "+format+"\n", a...)
		return nil, 1
	}
	if code := p.fromEnv(getenv, stderr); code >= 0 {
		return nil, code
	}
	found, operands, ok := cmdclient.ParseOptions("scancel", prog, argv[1:], opts, stderr)
	if !ok {
		return nil, 1
	}
	for _, f := range found {
		switch f.Opt.Long {
		case "account":
			p.account = strings.ToLower(f.Value)
		case "batch":
			p.batch = true
		case "ctld":
		case "full":
			p.full = true
		case "hurry":
			p.hurry = true
		case "interactive":
			p.interactive = true
		case "cluster", "clusters":
			cmdclient.ClusterUnreachable(stderr, "scancel", f.Value, false)
			return nil, 1
		case "me":
			p.userName = strconv.Itoa(os.Getuid())
		case "jobname", "name":
			p.name = f.Value
		case "nodelist":
			p.nodelist = f.Value
		case "partition":
			p.partition = f.Value
		case "qos":
			p.qos = strings.ToLower(f.Value)
		case "quiet":
			p.verbose = -1
		case "reservation":
			p.reservation = f.Value
		case "sibling":
			p.sibling = f.Value
		case "signal":
			sig, ok := parseSignal(f.Value)
			if !ok {
				fmt.Fprintf(stderr, "Unknown job signal: %s\n", f.Value)
				return nil, 1
			}
			p.signal = sig
		case "state":
			if !p.setState(f.Value, false, stderr) {
				return nil, 1
			}
		case "user":
			p.userName = f.Value
		case "verbose":
			p.verbose++
		case "wckey":
			p.wckey = f.Value
		case "help":
			p.info = cmdclient.InfoHelp
			return p, 0
		case "usage":
			p.info = cmdclient.InfoUsage
			return p, 0
		case "version":
			p.info = cmdclient.InfoVersion
			return p, 0
		}
	}
	if len(operands) > 0 {
		t, raw, err := parseIDs(operands)
		if err != nil {
			return fail("%v", err)
		}
		p.targets, p.raw = t, raw
	}
	if p.userName != "" {
		uid, ok := lookupUser(p.userName)
		if !ok {
			return fail("Invalid user name: %s", p.userName)
		}
		p.uid = uid
	}
	if p.account == "" && len(p.targets) == 0 && p.name == "" && p.nodelist == "" && p.partition == "" &&
		p.qos == "" && p.reservation == "" && !p.stateSet && p.userName == "" && p.wckey == "" {
		return fail("No job identification provided")
	}
	if p.verbose > 2 {
		p.listOptions(stderr)
	}
	return p, -1
}

// fromEnv applies SCANCEL_* as Slurm's _opt_env does; code is -1, or 1 after an error.
func (p *params) fromEnv(getenv func(string) (string, bool), stderr io.Writer) int {
	boolEnv := func(name string, set func(bool)) {
		v, ok := getenv(name)
		if !ok {
			return
		}
		switch strings.ToLower(v) {
		case "true", "t":
			set(true)
		case "false", "f":
			set(false)
		default:
			fmt.Fprintf(stderr, "scancel: error: Unrecognized %s value: %s\n", name, v)
		}
	}
	if v, ok := getenv("SCANCEL_ACCOUNT"); ok {
		p.account = strings.ToLower(v)
	}
	boolEnv("SCANCEL_BATCH", func(b bool) { p.batch = b })
	boolEnv("SCANCEL_FULL", func(b bool) { p.full = b })
	if _, ok := getenv("SCANCEL_HURRY"); ok {
		p.hurry = true
	}
	boolEnv("SCANCEL_INTERACTIVE", func(b bool) { p.interactive = b })
	if v, ok := getenv("SCANCEL_NAME"); ok {
		p.name = v
	}
	if v, ok := getenv("SCANCEL_PARTITION"); ok {
		p.partition = v
	}
	if v, ok := getenv("SCANCEL_QOS"); ok {
		p.qos = strings.ToLower(v)
	}
	if v, ok := getenv("SCANCEL_STATE"); ok {
		if !p.setState(v, true, stderr) {
			return 1
		}
	}
	if v, ok := getenv("SCANCEL_USER"); ok {
		p.userName = v
	}
	boolEnv("SCANCEL_VERBOSE", func(b bool) {
		p.verbose = 0
		if b {
			p.verbose = 1
		}
	})
	if v, ok := getenv("SCANCEL_WCKEY"); ok {
		p.wckey = v
	}
	if v, ok := getenv("SLURM_CLUSTERS"); ok {
		cmdclient.ClusterUnreachable(stderr, "scancel", v, false) // scancel says --cluster for both
		return 1
	}
	return -1
}

// setState applies -t (or SCANCEL_STATE): any job state name Slurm knows is accepted, though
// only PENDING, RUNNING and SUSPENDED jobs can match.
func (p *params) setState(v string, env bool, stderr io.Writer) bool {
	st, ok := states.ParseJobState(v)
	if !ok {
		if env {
			fmt.Fprintf(stderr, "Unrecognized SCANCEL_STATE value: %s\n", v)
		} else {
			fmt.Fprintf(stderr, "Invalid job state specified: %s\n", v)
		}
		fmt.Fprintf(stderr, "Valid job states are PENDING, RUNNING, and SUSPENDED\n")
		return false
	}
	p.state, p.stateSet = st, true
	return true
}

// listOptions is -vvv's dump of the options (Slurm's _opt_list).
func (p *params) listOptions(w io.Writer) {
	null := func(s string) string {
		if s == "" {
			return "(null)"
		}
		return s
	}
	tf := func(b bool) string {
		if b {
			return "true"
		}
		return "false"
	}
	line := func(k, v string) { fmt.Fprintf(w, "scancel: %-15s: %s\n", k, v) }
	line("account", null(p.account))
	line("batch", tf(p.batch))
	line("ctld", tf(false))
	line("full", tf(p.full))
	line("hurry", tf(p.hurry))
	line("interactive", tf(p.interactive))
	line("job_name", null(p.name))
	line("nodelist", null(p.nodelist))
	line("partition", null(p.partition))
	line("qos", null(p.qos))
	line("reservation", null(p.reservation))
	line("sibling", null(p.sibling))
	if p.signal != noSignal {
		line("signal", strconv.Itoa(int(p.signal)))
	}
	st := "?"
	if p.stateSet {
		st = p.state.String()
	}
	line("state", st)
	line("user_id", strconv.FormatUint(uint64(p.uid), 10))
	line("user_name", null(p.userName))
	line("verbose", strconv.Itoa(p.verbose))
	line("wckey", null(p.wckey))
	for i, t := range p.targets {
		if t.step == noStep {
			fmt.Fprintf(w, "scancel: job_id[%d]      : %s\n", i, t)
		} else {
			fmt.Fprintf(w, "scancel: job_step_id[%d] : %s\n", i, t)
		}
	}
}

// signalNames are the names sig_name2num knows (with or without "SIG", any case).
var signalNames = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT, "ABRT": syscall.SIGABRT,
	"KILL": syscall.SIGKILL, "ALRM": syscall.SIGALRM, "TERM": syscall.SIGTERM, "USR1": syscall.SIGUSR1,
	"USR2": syscall.SIGUSR2, "URG": syscall.SIGURG, "CONT": syscall.SIGCONT, "STOP": syscall.SIGSTOP,
	"TSTP": syscall.SIGTSTP, "TTIN": syscall.SIGTTIN, "TTOU": syscall.SIGTTOU,
}

// parseSignal is Slurm's sig_name2num into scancel's 16-bit signal: a number followed only
// by blanks, or a signal name. 0 (also what an unknown name gives) is refused.
func parseSignal(s string) (uint16, bool) {
	if n, rest, ok := strtol(s); ok {
		if strings.TrimSpace(rest) != "" {
			return 0, false
		}
		sig := uint16(n)
		return sig, sig != 0
	}
	name := strings.ToUpper(strings.TrimLeft(s, " \t\n"))
	name = strings.TrimPrefix(name, "SIG")
	name = strings.TrimRight(name, " \t\n")
	sig, ok := signalNames[name]
	return uint16(sig), ok
}

// lookupUser is uid_from_string (userdb.UIDFromString).
func lookupUser(name string) (uint32, bool) { return userdb.UIDFromString(name) }
