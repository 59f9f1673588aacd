// Command slurmd is Orbit's node daemon, started as Slurm's is: -D foreground (otherwise it
// daemonizes), -f FILE, -N NAME (one node of a multiple-slurmd layout, or a hostlist to host
// many emulated nodes in one process), -v, -V, -h; pid and log files from SlurmdPidFile and
// SlurmdLogFile with %n/%h. The daemon itself is the library slurmd/node; this file only
// parses options, daemonizes, sets up logging and handles signals.
package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

const usage = `Usage: slurmd [OPTIONS]
  -c          Force cleanup of slurmd shared memory.
  -d stepd    Pathname to the slurmstepd program.
  -D          Run daemon in foreground, with logging copied to stdout.
  -f config   Read configuration from the specified file.
  -h          Print this help message.
  -L logfile  Log messages to the file ` + "`logfile'" + `.
  -N node     Run the daemon for the specified nodename (Orbit: or a hostlist
              expression, to host every node it names in this one process).
  -v          Verbose mode. Multiple -v's increase verbosity.
  -V          Print version information and exit.
`

type options struct {
	conf, nodes, stepd, logFile string
	foreground, help, version   bool
	verbose                     int
}

// parseOptions reads slurmd's options: letters may be grouped ("-Dvv"), and an option with
// an argument takes the rest of its word or the next argument.
func parseOptions(args []string) (options, error) {
	var o options
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--help":
			o.help = true
			continue
		case "--version":
			o.version = true
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return o, fmt.Errorf("unexpected argument %q", a)
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'D':
				o.foreground = true
			case 'h':
				o.help = true
			case 'V':
				o.version = true
			case 'v':
				o.verbose++
			case 'c', 'b', 's', 'M':
				// No shared memory, locks or boot report to handle; accepted for scripts.
			case 'f', 'N', 'd', 'L':
				var v string
				if j+1 < len(a) {
					v = a[j+1:]
				} else if i+1 < len(args) {
					i++
					v = args[i]
				} else {
					return o, fmt.Errorf("option requires an argument -- '%c'", c)
				}
				switch c {
				case 'f':
					o.conf = v
				case 'N':
					o.nodes = v
				case 'd':
					o.stepd = v
				case 'L':
					o.logFile = v
				}
				j = len(a)
			default:
				return o, fmt.Errorf("invalid option -- '%c'", c)
			}
		}
	}
	return o, nil
}

// daemonEnv marks the re-executed child of a daemonizing slurmd.
const daemonEnv = "ORBIT_SLURMD_DAEMONIZED"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	o, err := parseOptions(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "slurmd: %v\n", err)
		fmt.Fprint(os.Stderr, usage)
		return 1
	}
	if o.help {
		fmt.Print(usage)
		return 0
	}
	if o.version {
		fmt.Println(version.String())
		return 0
	}
	confPath := conf.Locate(o.conf)
	cfg, err := conf.Load(confPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "slurmd: error: %v\nslurmd: fatal: Unable to process configuration file %s\n", err, confPath)
		return 1
	}
	if !o.foreground && os.Getenv(daemonEnv) == "" {
		return daemonize()
	}
	os.Unsetenv(daemonEnv)

	first, err := firstNode(cfg, o.nodes)
	if err != nil {
		fmt.Fprintf(os.Stderr, "slurmd: %v\n", err)
		return 1
	}
	logPath := o.logFile
	if logPath == "" && cfg.SlurmdLogFile != "" {
		logPath = conf.ExpandNodePattern(cfg.SlurmdLogFile, first.Name, first.Hostname)
	}
	var sinks []io.Writer
	if o.foreground {
		sinks = append(sinks, os.Stderr)
	}
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0640)
		if err != nil {
			fmt.Fprintf(os.Stderr, "slurmd: error: Unable to open log file %s: %v\n", logPath, err)
			return 1
		}
		defer f.Close()
		sinks = append(sinks, f)
	}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(sinks...), &slog.HandlerOptions{Level: logLevel(cfg.SlurmdDebug, o.verbose)}))
	slog.SetDefault(log)

	if p := cfg.SlurmdPidFile; p != "" {
		p = conf.ExpandNodePattern(p, first.Name, first.Hostname)
		if err := os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())+"\n"), 0644); err != nil {
			log.Error("unable to write pid file", "path", p, "err", err)
		} else {
			defer os.Remove(p)
		}
	}
	d, err := node.Start(node.Options{
		ConfPath: confPath, Config: cfg, NodeNames: o.nodes, StepdPath: o.stepd, Logger: log,
		LogFile: logPath, Debug: o.verbose > 0, LogLevels: slurmdLogLevels(cfg, o.verbose, o.foreground, logPath),
	})
	if err != nil {
		log.Error("fatal", "err", err)
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 1
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	signal.Ignore(syscall.SIGPIPE)
	for s := range sigs {
		if s == syscall.SIGHUP {
			log.Info("SIGHUP received: reconfiguration is not supported yet; restart slurmd instead")
			continue
		}
		log.Info("shutting down", "signal", s.String())
		break
	}
	d.Close()
	return 0
}

// firstNode is the node whose names fill %n/%h in the pid and log file names.
func firstNode(cfg *conf.Config, expr string) (*conf.Node, error) {
	if expr != "" {
		names, err := hostlist.Expand(expr)
		if err != nil || len(names) == 0 {
			return nil, fmt.Errorf("invalid node name list %q", expr)
		}
		if n := cfg.Node(names[0]); n != nil {
			return n, nil
		}
		return nil, fmt.Errorf("fatal: Unable to determine this slurmd's NodeName: %s is not in slurm.conf", names[0])
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	for _, n := range cfg.Nodes {
		if n.Name == host || n.Hostname == host {
			return n, nil
		}
	}
	return nil, errors.New("fatal: Unable to determine this slurmd's NodeName")
}

// logLevel maps SlurmdDebug and -v to slog levels (info and below are Info; debug* is
// Debug; each -v raises one step, as in Slurm).
func logLevel(debug string, verbose int) slog.Level {
	lvl := slog.LevelInfo
	switch strings.ToLower(debug) {
	case "quiet", "fatal", "error":
		lvl = slog.LevelError
	case "warning":
		lvl = slog.LevelWarn
	case "verbose", "info", "":
		lvl = slog.LevelInfo
	default: // debug, debug2..debug5
		lvl = slog.LevelDebug
	}
	for range verbose {
		if lvl > slog.LevelDebug {
			lvl -= 4
		}
	}
	return lvl
}

// daemonize starts this program again in a new session, detached from the terminal, and
// returns: Go cannot fork, so the child is a fresh exec with a marker in its environment.
func daemonize() int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "slurmd: cannot daemonize: %v\n", err)
		return 1
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), daemonEnv+"=1")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "slurmd: cannot daemonize: %v\n", err)
		return 1
	}
	cmd.Process.Release()
	return 0
}

// slurmdLogLevels are the levels Slurm's slurmd logs at to its file and to syslog, by name
// (its _update_logging): -v raises SlurmdDebug's; syslog gets SlurmdSyslogDebug, nothing in
// the foreground, the file's level without a file, else only fatal errors. srun
// --slurmd-debug reports them.
func slurmdLogLevels(cfg *conf.Config, verbose int, foreground bool, logFile string) [2]string {
	level := loglevel.Parse(cfg.SlurmdDebug)
	if verbose > 0 {
		level = loglevel.Info + uint16(verbose)
	}
	syslog := loglevel.Fatal
	if v, ok := cfg.Get("SlurmdSyslogDebug"); ok && v != "" {
		syslog = loglevel.Parse(v)
	} else if foreground {
		syslog = loglevel.Quiet
	} else if level > loglevel.Quiet && logFile == "" {
		syslog = level
	}
	return [2]string{loglevel.Name(level), loglevel.Name(syslog)}
}
