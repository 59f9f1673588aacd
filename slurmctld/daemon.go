package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
	"github.com/orbit-hpc/orbit/slurmctld/schedhost"
)

// daemonEnv marks the detached child of a daemonizing slurmctld.
const daemonEnv = "ORBIT_SLURMCTLD_DETACHED"

// runDaemon loads the configuration and the key (so errors reach the terminal), detaches
// unless -D, and serves until SIGTERM or SIGINT.
func runDaemon(opts options, args []string, stderr *os.File) int {
	path := conf.Locate(opts.confPath)
	cfg, err := conf.Load(path)
	if err != nil {
		if cfg != nil {
			for _, w := range cfg.Warnings {
				fmt.Fprintf(stderr, "slurmctld: warning: %s\n", w)
			}
		}
		var es conf.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				fmt.Fprintf(stderr, "slurmctld: error: %s\n", e)
			}
		} else {
			fmt.Fprintf(stderr, "slurmctld: error: %v\n", err)
		}
		fmt.Fprintf(stderr, "slurmctld: fatal: Unable to process configuration file %s\n", path)
		return 1
	}
	// slurm.key is needed only when auth/slurm or cred/slurm is configured; with munge for
	// both, munged holds the secret.
	var key *auth.Key
	if cfg.AuthType == auth.AuthTypeSlurm || cfg.CredType == auth.CredTypeSlurm {
		if key, err = auth.LoadKey(auth.KeyPath(path)); err != nil {
			fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
			return 1
		}
	}
	if !opts.foreground && os.Getenv(daemonEnv) == "" {
		return detach(args, stderr)
	}

	logFile := opts.logFile
	if logFile == "" {
		logFile = cfg.SlurmctldLogFile
	}
	var out []io.Writer
	if opts.foreground {
		out = append(out, stderr)
	}
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
		if err != nil {
			fmt.Fprintf(stderr, "slurmctld: fatal: Unable to open log file %s: %v\n", logFile, err)
			return 1
		}
		defer f.Close()
		out = append(out, f)
	}
	// The level is a variable: reconfigure applies a new SlurmctldDebug.
	var level slog.LevelVar
	level.Set(logLevel(cfg.SlurmctldDebug, opts.verbose))
	log := slog.New(slog.NewTextHandler(io.MultiWriter(out...), &slog.HandlerOptions{Level: &level}))
	gcCtx, stopGC := context.WithCancel(context.Background())
	defer stopGC()
	followLiveHeap(gcCtx, log) // memory_limit.go

	l, err := net.Listen("tcp", ctld.ListenAddr(cfg))
	if err != nil {
		log.Error("cannot listen", "err", err)
		fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
		return 1
	}
	// The scheduler plugin (SchedulerType) runs as this process's child; a type with no
	// plugin executable is fatal, as Slurm refuses a plugin it cannot load.
	sched, err := schedhost.Start(schedhost.Options{Type: cfg.SchedulerType, PluginDir: cfg.PluginDir,
		SocketParent: cfg.StateSaveLocation, Logger: log})
	if err != nil {
		l.Close()
		log.Error("cannot start the scheduler plugin", "err", err)
		fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
		return 1
	}
	c, err := ctld.New(ctld.Options{Config: cfg, Key: key, Logger: log, ClearState: opts.clearState, Scheduler: sched,
		OnReconfigure: func(n *conf.Config) { level.Set(logLevel(n.SlurmctldDebug, opts.verbose)) },
		OnDebugLevel:  func(l string) { level.Set(logLevel(l, opts.verbose)) }})
	if err != nil {
		sched.Close()
		l.Close()
		log.Error("cannot start", "err", err)
		fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
		return 1
	}
	if cfg.SlurmctldPidFile != "" {
		if err := os.WriteFile(cfg.SlurmctldPidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
			log.Error("cannot write pid file", "path", cfg.SlurmctldPidFile, "err", err)
		} else {
			defer os.Remove(cfg.SlurmctldPidFile)
		}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	signal.Ignore(syscall.SIGPIPE)
	// SIGHUP reconfigures, as `scontrol reconfigure` does (ctld/reconfigure.go).
	hups := make(chan os.Signal, 1)
	signal.Notify(hups, syscall.SIGHUP)
	served := make(chan error, 1)
	go func() { served <- c.Serve(l) }()
	log.Info("slurmctld started", "version", versionLine(), "addr", l.Addr().String(), "conf", path, "pid", os.Getpid())
wait:
	for {
		select {
		case <-hups:
			log.Info("Reconfigure signal (SIGHUP) received")
			if err := c.Reconfigure(context.Background()); err != nil {
				log.Error("reconfigure", "err", err)
			}
		case s := <-sigs:
			log.Info("terminating on signal", "signal", s.String())
			break wait
		case err := <-served:
			log.Error("server stopped", "err", err)
			break wait
		}
	}
	if err := c.Close(); err != nil {
		log.Error("closing state", "err", err)
		return 1
	}
	log.Info("slurmctld stopped")
	return 0
}

// detach starts this program again, in a new session with no terminal, and returns at once:
// Go cannot fork, so the child is a fresh process that recognises itself by daemonEnv.
func detach(args []string, stderr *os.File) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
		return 1
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(stderr, "slurmctld: fatal: %v\n", err)
		return 1
	}
	defer devnull.Close()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), daemonEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "slurmctld: fatal: cannot start the daemon: %v\n", err)
		return 1
	}
	cmd.Process.Release()
	return 0
}

// logLevel maps SlurmctldDebug and -v to a slog level: info by default, debug from
// "debug" or one -v.
func logLevel(debug string, verbose int) slog.Level {
	lvl := slog.LevelInfo
	switch d := strings.ToLower(debug); {
	case d == "quiet" || d == "fatal" || d == "error":
		lvl = slog.LevelError
	case d == "warning" || d == "warn":
		lvl = slog.LevelWarn
	case strings.HasPrefix(d, "debug") || strings.HasPrefix(d, "verbose"):
		lvl = slog.LevelDebug
	}
	if verbose > 0 {
		lvl = slog.LevelDebug
	}
	return lvl
}
