package ctld

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/user"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Options configure a Controller.
type Options struct {
	// Config is the loaded slurm.conf.
	Config *conf.Config
	// Key is slurm.key, used when AuthType=auth/slurm or CredType=cred/slurm: it verifies
	// requests, signs the controller's messages to nodes and signs launch credentials. With
	// auth/munge and cred/munge, munged does all of that and Key may be nil.
	Key *auth.Key
	// Logger receives the controller's logs; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now. Handlers read it, apply never does.
	Now func() time.Time
	// SchedInterval is how often the scheduler runs without being woken; 0 means 5 s.
	SchedInterval time.Duration
	// ClearState discards the saved jobs and node states at start (slurmctld -c).
	ClearState bool
	// LaunchWorkers bounds concurrent calls to nodes; 0 means 32.
	LaunchWorkers int
	// Scheduler, when set, plans every scheduling cycle: a plugin host (slurmctld/schedhost,
	// which slurmctld starts for SchedulerType) or a plugin linked in-process (tests, the
	// simulator). Its plans are verified before they are applied (sched_verify.go). If it is
	// an io.Closer, Close closes it after the scheduling loop has stopped. Nil means
	// sched/builtin linked in-process (the controller's own unit tests).
	Scheduler scheduler.Scheduler
	// Manual, when set, starts no background loop and no launch-agent worker: the caller
	// drives the clock (Now), the scheduling cycles, the timers and the calls to nodes, and
	// nothing happens between its calls. The simulator does (sim.go).
	Manual bool
	// OnReconfigure, when set, is called with the new configuration after each reconfigure
	// (slurmctld sets its log level from SlurmctldDebug).
	OnReconfigure func(*conf.Config)
	// OnDebugLevel, when set, is called with a log level name (compat/loglevel) when
	// scontrol setdebug changes it.
	OnDebugLevel func(level string)
}

// Controller is a running slurmctld.
type Controller struct {
	// cfg is the running slurm.conf; scontrol reconfigure swaps it whole (reconfigure.go),
	// so readers take it once with config() and see one configuration throughout.
	cfg     atomic.Pointer[conf.Config]
	log     *slog.Logger
	now     func() time.Time
	store   *store.Store
	srv     *wire.Server
	nodeOpt wire.ClientOptions // how the controller calls nodes
	launch  auth.LaunchCredSigner

	slurmUID uint32
	selfUID  uint32
	trackMem bool
	groups   *userGroups // users' groups for AllowGroups (part_access_groups.go)
	// allocNodes caches the names of submitting hosts (alloc_node.go).
	allocNodes allocNodeCache
	interval   time.Duration

	mu sync.RWMutex
	t  *tables
	// resvIdle is when each PURGE_COMP reservation last went idle (resv_end.go), under mu.
	resvIdle map[string]int64

	kick      chan struct{} // wake: a change that may let a job start (sched_loop.go)
	batchKick chan struct{} // wakeBatch: batch submits, which may wait (batch_sched_delay)
	pace      schedPacing   // SchedulerParameters' pacing of the loop (sched_params.go)
	cycles    cycleWaiters  // handlers waiting for the next scheduling cycle (sched_loop.go)
	agent     chan agentTask

	names nameCache
	steps stepTable // job steps (step_table.go)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	closeOnce sync.Once
	listener  net.Listener

	booted time.Time        // when New ran: show config's BOOT_TIME (admin.go)
	fan    fanoutState      // ping sweeps and tree broadcasts (node_ping.go, launch_agent.go)
	health healthCheckState // HealthCheckInterval rounds (node_health_check.go)
	stats  ctldStats        // sdiag's statistics (stats.go)
	epilog epilogWait       // COMPLETING jobs waiting for their nodes' epilogs (epilog_wait.go)
	heard  allocActivity    // when each interactive allocation's client was last heard (job_inactive.go)
	plug   schedPlugin      // the scheduler plugin and what it was last sent (sched_cycle.go)
	// jobCache sizes the packed job-info replies (job_info_cache.go).
	jobCache jobInfoCache
	prios    priorityState // priority/multifactor's factors and recalculation (priority.go)
	// fairShare is multifactor's usage and fair-share factors (priority_fairshare.go).
	fairShare fairShareState
	manual    bool        // Options.Manual: a simulation, whose usage is not saved
	reconf    reconfState // scontrol reconfigure and SIGHUP (reconfigure.go)
	bf        bfStats     // sdiag's backfill section (stats_backfill.go)
	onReconf  func(*conf.Config)
	admin     adminSettings // scontrol setdebug, setdebugflags, fsdampeningfactor (debug_level.go)
	mailTimes mailSent      // the time-limit mails running jobs were sent (job_mail.go)
}

// New opens the state in StateSaveLocation, recovers the saved jobs and nodes, and returns a
// controller ready to Serve. It fails when the state cannot be opened (for example while
// another slurmctld holds it).
func New(opts Options) (*Controller, error) {
	cfg := opts.Config
	if cfg == nil {
		return nil, errors.New("ctld: no configuration")
	}
	authSuite, err := auth.NewSuite(cfg.AuthType, cfg.CredType, cfg.AuthInfo, "", opts.Key, nil)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if cfg.StateSaveLocation == "" {
		return nil, errors.New("ctld: StateSaveLocation is not set")
	}
	if err := checkLicenseConfig(cfg.Licenses); err != nil { // licenses.go
		return nil, err
	}
	if err := os.MkdirAll(cfg.StateSaveLocation, 0o755); err != nil {
		return nil, fmt.Errorf("StateSaveLocation %s: %w", cfg.StateSaveLocation, err)
	}
	st, err := store.Open(cfg.StateSaveLocation, store.Options{})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	msgTimeout := time.Duration(cfg.MessageTimeout) * time.Second
	c := &Controller{
		log:      log,
		now:      now,
		store:    st,
		launch:   authSuite.LaunchSigner,
		selfUID:  uint32(os.Getuid()),
		slurmUID: lookupUID(cfg.SlurmUser),
		groups:   newUserGroups(groupUpdateTime(cfg)),
		trackMem: memoryTracked(cfg.CtldSelectTypeParameters()),
		interval: opts.SchedInterval,
		prios: priorityState{factors: map[uint32]jobFactors{}, computed: map[uint32]uint32{},
			held: map[uint32]bool{}, direct: map[uint32]bool{}},
		fairShare: newFairShareState(),
		manual:    opts.Manual,
		t:         newTables(cfg),
		kick:      make(chan struct{}, 1),
		batchKick: make(chan struct{}, 1),
		agent:     make(chan agentTask, 4096),
		ctx:       ctx,
		cancel:    cancel,
	}
	switch ls := c.launch.(type) {
	case *auth.LaunchSigner:
		ls.Now = now
	case *auth.MungeLaunchSigner:
		ls.Now = now
	}
	c.cfg.Store(cfg)
	c.booted = now()
	c.onReconf = opts.OnReconfigure
	c.admin.onLevel = opts.OnDebugLevel
	c.plug.sched = opts.Scheduler
	if c.plug.sched == nil {
		c.plug.sched = builtin.New(c.schedConfig())
	}
	if c.interval <= 0 {
		c.interval = 5 * time.Second
	}
	if c.pace, err = parseSchedPacing(cfg.SchedulerParameters); err != nil {
		log.Error("SchedulerParameters: using Slurm's default for what is invalid", "err", err)
	}
	c.nodeOpt = wire.ClientOptions{
		MessageTimeout: msgTimeout,
		Signer:         authSuite.Signer,
	}
	if opts.ClearState {
		if err := c.clearState(); err != nil {
			st.Close()
			cancel()
			return nil, err
		}
	}
	if err := c.recover(); err != nil {
		st.Close()
		cancel()
		return nil, err
	}
	c.startPriority()
	c.srv = wire.NewServer(wire.ServerOptions{
		Logger:         log,
		MessageTimeout: msgTimeout,
		Authenticator:  rpcauth.Authenticator{V: authSuite.Verifier},
	})
	c.register()
	if opts.Manual {
		return c, nil // sim.go drives the loops' work and the node calls itself
	}
	workers := opts.LaunchWorkers
	if workers <= 0 {
		workers = 32
	}
	for range workers {
		c.wg.Add(1)
		go c.agentWorker()
	}
	c.wg.Add(2)
	go c.schedLoop()
	go c.limitsLoop()
	c.relaunchRecovered()
	c.wake() // recovered jobs get their pending reasons (and maybe start) at once
	return c, nil
}

// relaunchRecovered resends the batch launch of every recovered job that is RUNNING (and not
// completing). An earlier controller process may have died between making a job's start
// durable and its launch reaching the node; resending is always safe because slurmd starts a
// job at most once: it answers a launch for a job whose slurmstepd lives (running, or ended
// and still reporting its end) with success and starts nothing.
func (c *Controller) relaunchRecovered() {
	c.mu.RLock()
	var ids []uint32
	for id, j := range c.t.jobs {
		if s := j.state(); s.IsRunning() && !s.IsCompleting() && !j.isInteractive() {
			ids = append(ids, id)
		}
	}
	c.mu.RUnlock()
	if len(ids) == 0 {
		return
	}
	c.log.Info("resending the launch of recovered running jobs", "jobs", len(ids))
	go func() {
		for _, id := range ids {
			c.send(agentTask{kind: taskLaunch, jobID: id})
		}
	}()
}

// register installs every endpoint, one message family per file.
func (c *Controller) register() {
	c.srv.HandleRPC(wire.MsgPing, c.handlePing)
	c.srv.HandleRPC(wire.MsgSubmitBatchJob, c.handleSubmitBatchJob)
	c.srv.HandleRPC(wire.MsgJobInfo, c.handleJobInfo)
	c.srv.HandleRPC(wire.MsgKillJob, c.handleKillJob)
	c.srv.HandleRPC(wire.MsgNodeRegistration, c.handleNodeRegistration)
	c.srv.HandleRPC(wire.MsgRegisterBatch, c.handleRegisterBatch) // node_registration_batch.go
	c.srv.HandleRPC(wire.MsgNodeInfo, c.handleNodeInfo)
	c.srv.HandleRPC(wire.MsgBatchJobComplete, c.handleBatchJobComplete)
	c.srv.HandleRPC(wire.MsgUpdateJob, c.handleUpdateJob)             // job_update.go
	c.srv.HandleRPC(wire.MsgUpdateStep, c.handleUpdateStep)           // step_update.go
	c.srv.HandleRPC(wire.MsgUpdateNode, c.handleUpdateNode)           // node_update.go
	c.srv.HandleRPC(wire.MsgUpdatePartition, c.handleUpdatePartition) // partition_update.go
	c.srv.HandleRPC(wire.MsgCreatePartition, c.handleCreatePartition) // partition_create.go
	c.srv.HandleRPC(wire.MsgDeletePartition, c.handleDeletePartition)
	c.registerAdmin() // admin.go
	c.registerSteps()
	c.registerStats() // stats.go: sdiag, and the RPC observer
	// Prolog and epilog failures reported by slurmd (node_drain.go).
	c.srv.HandleRPC(wire.MsgPrologComplete, c.handlePrologComplete)
	c.srv.HandleRPC(wire.MsgEpilogComplete, c.handleEpilogComplete)
	c.srv.HandleRPC(wire.MsgPriorityFactors, c.handlePriorityFactors) // priority_info.go: sprio
	c.srv.HandleRPC(wire.MsgBatchScript, c.handleBatchScript)         // job_batch_script.go: scontrol write batch_script
	c.srv.HandleRPC(wire.MsgLicenseInfo, c.handleLicenseInfo)         // licenses.go: scontrol show licenses
	c.srv.HandleRPC(wire.MsgCreateResv, c.handleCreateResv)           // resv_create.go: scontrol create reservation
	c.srv.HandleRPC(wire.MsgUpdateResv, c.handleUpdateResv)           // resv_update.go
	c.srv.HandleRPC(wire.MsgDeleteResv, c.handleDeleteResv)
	c.srv.HandleRPC(wire.MsgResvInfo, c.handleResvInfo) // resv_record.go: scontrol show reservation, sinfo -T
}

// Serve answers RPCs on l until Close.
func (c *Controller) Serve(l net.Listener) error {
	c.mu.Lock()
	if c.listener == nil {
		c.listener = l
	}
	c.mu.Unlock()
	err := c.srv.Serve(l)
	if errors.Is(err, wire.ErrServerClosed) {
		return nil
	}
	return err
}

// Addr is the address of the first listener given to Serve, or nil.
func (c *Controller) Addr() net.Addr {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.listener == nil {
		return nil
	}
	return c.listener.Addr()
}

// Close stops serving, stops the background loops and closes the state (every acknowledged
// change is already durable).
func (c *Controller) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.srv.Close()
		c.cancel()
		c.wg.Wait()
		c.plug.close(c.log) // sched_cycle.go: kills a plugin process
		err = c.store.Close()
	})
	return err
}

// wake asks the scheduler for a pass soon (sched_min_interval after the last one ended);
// many wakes before it runs make one pass.
func (c *Controller) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// wakeBatch asks for a pass for newly submitted batch jobs, which Slurm lets wait up to
// batch_sched_delay so that a burst of submits is scheduled in few passes (sched_loop.go).
func (c *Controller) wakeBatch() {
	select {
	case c.batchKick <- struct{}{}:
	default:
	}
}

// config is the running configuration: one read, consistent however long the caller keeps it.
func (c *Controller) config() *conf.Config { return c.cfg.Load() }

// ListenAddr is where slurmctld listens: the first SlurmctldHost's address and SlurmctldPort.
func ListenAddr(cfg *conf.Config) string {
	host := "127.0.0.1"
	if len(cfg.SlurmctldHosts) > 0 {
		host = cfg.SlurmctldHosts[0].Addr
		if host == "" {
			host = cfg.SlurmctldHosts[0].Name
		}
	}
	if cfg.SlurmctldAddr != "" {
		host = cfg.SlurmctldAddr
	}
	return net.JoinHostPort(host, strconv.Itoa(int(cfg.SlurmctldPort)))
}

func lookupUID(name string) uint32 {
	if name == "" {
		return 0
	}
	if u, err := user.Lookup(name); err == nil {
		if n, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			return uint32(n)
		}
	}
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n)
	}
	return 0
}
