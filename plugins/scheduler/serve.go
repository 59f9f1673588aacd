package scheduler

import (
	"context"
	"fmt"
	"os"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
)

// parentPoll is how often a plugin checks that slurmctld, its parent, still lives.
const parentPoll = 500 * time.Millisecond

// Serve runs s as a scheduler plugin: the main of a plugin executable calls it and nothing
// else. It speaks go-plugin's handshake on stdout and serves Sync, Update and Schedule over
// gRPC until the host kills it. Started by hand, without the host's cookie, it prints that it
// is a plugin and exits 1.
//
// The plugin exits as soon as its parent changes: go-plugin ties nothing to a host that dies
// abruptly, the host's Pdeathsig covers only the thread that started the plugin, and a
// scheduler left behind would be a second writer of plans for a controller that is gone.
func Serve(s Scheduler) {
	if os.Getenv(Handshake.MagicCookieKey) != Handshake.MagicCookieValue {
		fmt.Fprintln(os.Stderr, "This is an Orbit scheduler plugin: slurmctld starts it (SchedulerType); it is not run by hand.")
		os.Exit(1)
	}
	go watchParent(os.Getppid())
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         pluginSet(s),
		GRPCServer:      GRPCServer,
		Logger: hclog.New(&hclog.LoggerOptions{
			Name:   "sched",
			Output: os.Stderr,
			Level:  hclog.Warn,
		}),
	})
}

// watchParent exits the process when its parent is no longer ppid (reparented to init or a
// subreaper after the parent died).
func watchParent(ppid int) {
	for {
		time.Sleep(parentPoll)
		if os.Getppid() != ppid {
			os.Exit(2)
		}
	}
}

// ServeNew runs a plugin whose scheduler is built from the configuration, which arrives with
// the first Sync (the plugin starts before it): newSched is called then, and again when a
// later Sync carries another configuration. A configuration newSched refuses fails the Sync,
// and slurmctld logs the error.
func ServeNew(newSched func(Config) (Scheduler, error)) {
	Serve(&lazy{newSched: newSched})
}

// lazy builds its Scheduler on Sync.
type lazy struct {
	newSched func(Config) (Scheduler, error)
	cfg      Config
	s        Scheduler
}

func (l *lazy) Sync(ctx context.Context, st State) error {
	if l.s == nil || l.cfg != st.Config {
		s, err := l.newSched(st.Config)
		if err != nil {
			return err
		}
		l.s, l.cfg = s, st.Config
	}
	return l.s.Sync(ctx, st)
}

func (l *lazy) Update(ctx context.Context, d Delta) error {
	if l.s == nil {
		return ErrResync
	}
	return l.s.Update(ctx, d)
}

func (l *lazy) Schedule(ctx context.Context, now int64) (Plan, error) {
	if l.s == nil {
		return Plan{}, ErrResync
	}
	return l.s.Schedule(ctx, now)
}
