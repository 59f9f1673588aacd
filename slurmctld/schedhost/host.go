package schedhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	plugin "github.com/hashicorp/go-plugin"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Defaults for Options.
const (
	// DefaultCallTimeout bounds one Sync, Update or Schedule. A cycle of Slurm's backfill is
	// bounded by bf_max_time (default 30 s of work, spread over several cycles with
	// bf_continue); 10 s is far above a healthy plugin's plan for thousands of jobs and short
	// enough that a hung plugin costs a few missed cycles, not minutes of idle nodes.
	DefaultCallTimeout = 10 * time.Second
	DefaultRestartMin  = 100 * time.Millisecond
	DefaultRestartMax  = 10 * time.Second
	// startTimeout bounds the handshake of a starting plugin.
	startTimeout = 10 * time.Second
)

// ErrNotRunning is returned while a failed plugin waits out its restart backoff.
var ErrNotRunning = errors.New("schedhost: scheduler plugin not running (restart pending)")

// Options configure a Host.
type Options struct {
	// Type is SchedulerType (sched/NAME).
	Type string
	// PluginDir is slurm.conf's PluginDir (colon-separated); ExtraDirs are searched after it
	// and after the slurmctld binary's directory (tests).
	PluginDir string
	ExtraDirs []string
	Logger    *slog.Logger
	// CallTimeout bounds each call; 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// RestartMin and RestartMax bound the restart backoff; 0 means the defaults.
	RestartMin, RestartMax time.Duration
	// SocketParent is where each plugin child's socket directory is made: slurmctld passes
	// StateSaveLocation, so a controller killed with SIGKILL leaves its directories there,
	// to be swept at its next start, not in /tmp. Empty (or too long for a socket path)
	// means the temporary directory.
	SocketParent string
}

// Host is a scheduler plugin running as a child process, used as a scheduler.Scheduler. Its
// methods are called from one goroutine (the controller's scheduling loop); Close and Pid may
// be called from any.
type Host struct {
	path string
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	cur     *child // nil when not running
	synced  bool   // cur has had a successful Sync
	backoff time.Duration
	nextTry time.Time
	starts  int
	closed  bool
}

var _ scheduler.Scheduler = (*Host)(nil)

// child is one plugin process.
type child struct {
	client *plugin.Client
	sched  scheduler.Scheduler
	pid    int
	done   chan struct{} // closed by kill: lets the starting thread exit
	once   sync.Once
	// sockDir holds the plugin's socket; made by spawnLocked with os.MkdirTemp.
	sockDir string
}

// Start finds the plugin executable for opts.Type and starts it. A missing executable or a
// plugin that fails its handshake is an error: slurmctld does not start without its
// scheduler.
func Start(opts Options) (*Host, error) {
	dirs := SearchDirs(opts.PluginDir, opts.ExtraDirs)
	path, err := Find(opts.Type, dirs)
	if err != nil {
		return nil, err
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.RestartMin <= 0 {
		opts.RestartMin = DefaultRestartMin
	}
	if opts.RestartMax <= 0 {
		opts.RestartMax = DefaultRestartMax
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	opts.removeStaleSockDirs()
	h := &Host{path: path, opts: opts, log: log.With("plugin", opts.Type)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.spawnLocked(); err != nil {
		return nil, fmt.Errorf("%s (%s): %w", opts.Type, path, err)
	}
	return h, nil
}

// Path is the executable the host runs.
func (h *Host) Path() string { return h.path }

// Pid is the running plugin's process id, 0 when none runs.
func (h *Host) Pid() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur == nil {
		return 0
	}
	return h.cur.pid
}

// Starts counts the plugin processes started so far (1 + restarts).
func (h *Host) Starts() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.starts
}

// Close kills the plugin; later calls fail.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.killLocked("controller stopping")
	return nil
}

// spawnLocked starts a plugin process. The process is started from a goroutine locked to
// its OS thread, which stays locked (and so alive) until the child is killed: Linux sends
// Pdeathsig when the thread that forked the child exits, not the process, and Go may retire
// an unlocked thread at any time.
func (h *Host) spawnLocked() error {
	type result struct {
		c   *child
		err error
	}
	// go-plugin's plugin listens on a Unix socket it creates in $PLUGIN_UNIX_SOCKET_DIR (else
	// in /tmp) and removes only on a clean exit; a killed plugin would leave it behind. Each
	// child gets a directory of the host's, removed when the child is killed.
	sockDir, err := os.MkdirTemp(h.opts.sockParent(), sockDirPrefix)
	if err != nil {
		h.failedLocked()
		return err
	}
	res := make(chan result, 1)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		cmd := exec.Command(h.path)
		cmd.Env = append(os.Environ(), plugin.EnvUnixSocketDir+"="+sockDir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		client := plugin.NewClient(&plugin.ClientConfig{
			HandshakeConfig:  scheduler.Handshake,
			Plugins:          plugin.PluginSet{scheduler.PluginName: &scheduler.GRPCPlugin{}},
			Cmd:              cmd,
			AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
			GRPCDialOptions:  scheduler.GRPCDialOptions,
			StartTimeout:     startTimeout,
			Logger:           newHCLogger(h.log),
		})
		c := &child{client: client, done: done, sockDir: sockDir}
		rpc, err := client.Client()
		if err == nil {
			var raw any
			if raw, err = rpc.Dispense(scheduler.PluginName); err == nil {
				s, ok := raw.(scheduler.Scheduler)
				if !ok {
					err = fmt.Errorf("plugin dispensed %T, not a scheduler", raw)
				}
				c.sched = s
			}
		}
		if err != nil {
			client.Kill()
			os.RemoveAll(sockDir)
			res <- result{err: err}
			return
		}
		if rc := client.ReattachConfig(); rc != nil {
			c.pid = rc.Pid
		}
		res <- result{c: c}
		<-done
	}()
	r := <-res
	h.starts++
	if r.err != nil {
		h.failedLocked()
		return r.err
	}
	h.cur, h.synced = r.c, false
	h.log.Info("scheduler plugin started", "path", h.path, "pid", r.c.pid)
	return nil
}

// failedLocked schedules the next start attempt after a growing backoff.
func (h *Host) failedLocked() {
	if h.backoff == 0 {
		h.backoff = h.opts.RestartMin
	} else {
		h.backoff = min(2*h.backoff, h.opts.RestartMax)
	}
	h.nextTry = time.Now().Add(h.backoff)
}

// killLocked kills the running plugin, if any: SIGKILL first (a hung plugin ignores a polite
// shutdown, and go-plugin would wait for it), then go-plugin's cleanup.
func (h *Host) killLocked(why string) {
	c := h.cur
	if c == nil {
		return
	}
	h.cur, h.synced = nil, false
	if c.pid > 0 {
		_ = syscall.Kill(c.pid, syscall.SIGKILL)
	}
	c.client.Kill()
	c.once.Do(func() { close(c.done) })
	os.RemoveAll(c.sockDir)
	h.log.Warn("scheduler plugin stopped", "pid", c.pid, "why", why)
}

// running returns the live plugin, starting one if none runs and the backoff has passed.
func (h *Host) running() (*child, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("schedhost: closed")
	}
	if h.cur != nil && h.cur.client.Exited() {
		h.killLocked("plugin process exited")
		h.failedLocked()
	}
	if h.cur == nil {
		if time.Now().Before(h.nextTry) {
			return nil, ErrNotRunning
		}
		if err := h.spawnLocked(); err != nil {
			h.log.Error("cannot restart scheduler plugin", "err", err, "retry_in", h.backoff)
			return nil, ErrNotRunning
		}
	}
	return h.cur, nil
}

// call runs f against the live plugin under the call deadline; a failure other than
// ErrResync kills the plugin so the next call starts afresh.
func (h *Host) call(ctx context.Context, what string, f func(context.Context, scheduler.Scheduler) error) error {
	c, err := h.running()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	err = f(ctx, c.sched)
	if err == nil || errors.Is(err, scheduler.ErrResync) {
		return err
	}
	h.mu.Lock()
	if h.cur == c {
		why := fmt.Sprintf("%s failed: %v", what, err)
		if ctx.Err() == context.DeadlineExceeded {
			why = fmt.Sprintf("%s did not answer within %s", what, h.opts.CallTimeout)
		}
		h.killLocked(why)
		h.failedLocked()
	}
	h.mu.Unlock()
	return fmt.Errorf("scheduler plugin %s: %w", what, err)
}

// Sync sends the full state; the plugin is then ready for Update and Schedule.
func (h *Host) Sync(ctx context.Context, s scheduler.State) error {
	var c *child
	err := h.call(ctx, "Sync", func(ctx context.Context, sc scheduler.Scheduler) error {
		h.mu.Lock()
		c = h.cur
		h.mu.Unlock()
		return sc.Sync(ctx, s)
	})
	if err == nil {
		h.mu.Lock()
		if h.cur == c {
			h.synced = true
			h.backoff = 0 // a plugin that took a state is healthy again
		}
		h.mu.Unlock()
	}
	return err
}

// Update sends a delta; a plugin that has not had a Sync since it started answers ErrResync
// without a call.
func (h *Host) Update(ctx context.Context, d scheduler.Delta) error {
	if !h.isSynced() {
		return scheduler.ErrResync
	}
	return h.call(ctx, "Update", func(ctx context.Context, sc scheduler.Scheduler) error {
		return sc.Update(ctx, d)
	})
}

// Schedule asks for one plan; without a synced plugin it answers ErrResync.
func (h *Host) Schedule(ctx context.Context, now int64) (scheduler.Plan, error) {
	if !h.isSynced() {
		return scheduler.Plan{}, scheduler.ErrResync
	}
	var p scheduler.Plan
	err := h.call(ctx, "Schedule", func(ctx context.Context, sc scheduler.Scheduler) error {
		var err error
		p, err = sc.Schedule(ctx, now)
		return err
	})
	return p, err
}

// UpdateSchedule sends a delta and asks for a plan in one call to the plugin process;
// without a synced plugin it answers ErrResync without a call.
func (h *Host) UpdateSchedule(ctx context.Context, d scheduler.Delta, now int64) (scheduler.Plan, error) {
	if !h.isSynced() {
		return scheduler.Plan{}, scheduler.ErrResync
	}
	var p scheduler.Plan
	err := h.call(ctx, "UpdateSchedule", func(ctx context.Context, sc scheduler.Scheduler) error {
		var err error
		p, err = scheduler.UpdateAndSchedule(ctx, sc, d, now)
		return err
	})
	return p, err
}

func (h *Host) isSynced() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur != nil && h.synced && !h.cur.client.Exited()
}
