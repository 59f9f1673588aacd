package cluster

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
	"github.com/orbit-hpc/orbit/slurmctld/schedhost"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// inProcess holds the daemons of an Options.InProcess cluster: the controller and the node
// daemon run in the test process through their packages' API, with the same slurm.conf,
// ports and state as the binaries would use. slurmstepd stays a real process (it must
// outlive slurmd and run jobs in their own session), and the commands stay binaries.
type inProcess struct {
	cfg   *conf.Config
	key   *auth.Key
	ctld  *ctld.Controller
	done  chan error // Serve's result for ctld
	node  *node.Daemon
	logs  []*os.File
	tb    testing.TB
	ctlID int // controller starts, to name their log sections
}

// startInProcess starts the controller and then the node daemon hosting every node.
func (c *Cluster) startInProcess(t testing.TB) {
	t.Helper()
	cfg, err := conf.Load(c.ConfPath)
	if err != nil {
		t.Fatalf("cluster: loading the written slurm.conf: %v", err)
	}
	var key *auth.Key // none under auth/munge: munged signs
	if !c.Opts.Munge {
		if key, err = auth.LoadKey(auth.KeyPath(c.ConfPath)); err != nil {
			t.Fatalf("cluster: %v", err)
		}
	}
	c.in = &inProcess{cfg: cfg, key: key, tb: t}
	c.startCtldInProcess(t)
	d, err := node.Start(node.Options{
		ConfPath:      c.ConfPath,
		Config:        cfg,
		NodeNames:     fmt.Sprintf("n[1-%d]", c.Opts.Nodes),
		StepdPath:     testbin.Path(t, "slurmd/slurmstepd"),
		DeadNodesFile: c.deadNodesFile(),
		Logger:        c.in.logger(t, cfg.SlurmdLogFile, "n1", "n1"),
		LogFile:       conf.ExpandNodePattern(cfg.SlurmdLogFile, "n1", "n1"),
	})
	if err != nil {
		c.Fatalf(t, "cluster: starting the in-process slurmd: %v", err)
	}
	c.in.node = d
}

// logger opens the daemon's log file from the configuration, so dumpLogs shows it as it
// shows the binaries' logs.
func (p *inProcess) logger(t testing.TB, pattern, name, host string) *slog.Logger {
	var w io.Writer = io.Discard
	if pattern != "" {
		f, err := os.OpenFile(conf.ExpandNodePattern(pattern, name, host), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatalf("cluster: %v", err)
		}
		p.logs = append(p.logs, f)
		w = f
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startCtldInProcess starts a controller on the configured address over the saved state.
func (c *Cluster) startCtldInProcess(t testing.TB) {
	t.Helper()
	p := c.in
	// The previous controller's port is free again (listeners set SO_REUSEADDR), but a
	// restarted one retries briefly in case the kernel has not released it yet.
	var l net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if l, err = net.Listen("tcp", ctld.ListenAddr(p.cfg)); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("cluster: in-process slurmctld: %v", err)
	}
	log := p.logger(t, p.cfg.SlurmctldLogFile, "", "")
	p.ctlID++
	log.Info("in-process slurmctld starting", "start", p.ctlID, "addr", l.Addr().String())
	// The scheduler plugin runs as a child process, as under the real slurmctld; it is looked
	// for beside the test binaries, as slurmctld looks beside itself.
	sched, err := schedhost.Start(schedhost.Options{Type: p.cfg.SchedulerType, PluginDir: p.cfg.PluginDir,
		ExtraDirs: []string{testbin.PluginDir(t)}, SocketParent: p.cfg.StateSaveLocation, Logger: log})
	if err != nil {
		l.Close()
		t.Fatalf("cluster: in-process slurmctld: %v", err)
	}
	ctl, err := ctld.New(ctld.Options{Config: p.cfg, Key: p.key, Logger: log, Scheduler: sched})
	if err != nil {
		sched.Close()
		l.Close()
		c.Fatalf(t, "cluster: starting the in-process slurmctld: %v", err)
	}
	p.ctld, p.done = ctl, make(chan error, 1)
	go func(done chan error) { done <- ctl.Serve(l) }(p.done)
}

// closeCtld closes the in-process controller cleanly and reports a Serve error.
func (p *inProcess) closeCtld() {
	if p.ctld == nil {
		return
	}
	p.ctld.Close()
	if err := <-p.done; err != nil {
		p.tb.Errorf("cluster: in-process slurmctld: Serve: %v", err)
	}
	p.ctld, p.done = nil, nil
}

// exited reports why the in-process controller's Serve returned before Close, or nil while
// it serves.
func (p *inProcess) exited() error {
	if p.ctld == nil {
		return nil
	}
	select {
	case err := <-p.done:
		p.done <- err // keep it for closeCtld
		if err == nil {
			err = errors.New("Serve returned")
		}
		return err
	default:
		return nil
	}
}

// stop closes the node daemon, then the controller, then the log files.
func (p *inProcess) stop() {
	if p.node != nil {
		p.node.Close()
		p.node = nil
	}
	p.closeCtld()
	for _, f := range p.logs {
		f.Close()
	}
	p.logs = nil
}
