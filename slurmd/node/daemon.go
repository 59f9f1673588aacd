package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// hosted is one node this daemon serves.
type hosted struct {
	node  *conf.Node
	spool string // SlurmdSpoolDir with %n/%h expanded
}

// Daemon is a running slurmd.
type Daemon struct {
	opts     Options
	cfg      *conf.Config
	log      *slog.Logger
	nodes    map[string]*hosted
	order    []string // hosted node names, in configuration order
	stepd    string
	keyPath  string
	auth     *auth.Suite
	signer   auth.Signer
	launchV  auth.LaunchCredVerifier
	admins   []uint32 // uids allowed to launch, signal and terminate
	ctlds    []string // controller host:port, primary first
	timeout  time.Duration
	start    time.Time
	srv      *wire.Server
	ln       net.Listener
	addr     string // the address registered with the controller
	authSrv  *auth.AuthServer
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	mu       sync.Mutex
	starting map[uint32]bool                 // jobs whose slurmstepd is being started
	killed   map[uint32]map[string]killedJob // jobs ended on a node before their launch arrived (see killed.go)
	dead     *deadNodes                      // emulated nodes that do not answer (emulate.go)
	health   healthChecks                    // HealthCheckProgram runs under way (health_check.go)
	regs     *regQueue                       // registrations gathered into batches (register_batch.go)
	// singleRegs: the controller takes no batches, register one node per call.
	singleRegs atomic.Bool
	// lastCtldMsg is when the controller last sent a request (Unix seconds, 0 = never):
	// scontrol show slurmd's "Last slurmctld msg time".
	lastCtldMsg atomic.Int64
	spares      spareSlot // the slurmstepd started ahead of the next launch (stepd_spare.go)
}

// Start starts a slurmd: it resolves the hosted nodes, creates their spool directories,
// listens, serves, and begins registering with the controller in the background.
func Start(opts Options) (*Daemon, error) {
	cfg := opts.Config
	if cfg == nil {
		return nil, errors.New("slurmd: no configuration")
	}
	d := &Daemon{opts: opts, cfg: cfg, log: opts.Logger, nodes: map[string]*hosted{},
		start: time.Now(), starting: map[uint32]bool{}, killed: map[uint32]map[string]killedJob{}}
	if d.log == nil {
		d.log = slog.Default()
	}
	d.dead = newDeadNodes(firstNonEmpty(opts.DeadNodesFile, os.Getenv(DeadNodesEnv)))
	names, err := hostedNames(cfg, opts.NodeNames)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		n := cfg.Node(name)
		spool := conf.ExpandNodePattern(cfg.SlurmdSpoolDir, n.Name, n.Hostname)
		if err := os.MkdirAll(spool, 0755); err != nil {
			return nil, fmt.Errorf("slurmd: unable to create spool directory %s: %v", spool, err)
		}
		os.Chmod(spool, 0755)
		d.nodes[name] = &hosted{node: n, spool: spool}
		d.order = append(d.order, name)
	}
	if d.stepd = opts.StepdPath; d.stepd == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("slurmd: cannot find own executable to locate slurmstepd: %v", err)
		}
		d.stepd = filepath.Join(filepath.Dir(exe), "slurmstepd")
	}
	if _, err := os.Stat(d.stepd); err != nil {
		return nil, fmt.Errorf("slurmd: slurmstepd not found: %v", err)
	}
	if err := d.setupAuth(); err != nil {
		return nil, err
	}
	d.timeout = time.Duration(cfg.MessageTimeout) * time.Second
	if d.timeout <= 0 {
		d.timeout = wire.DefaultMessageTimeout
	}
	for _, h := range cfg.SlurmctldHosts {
		addr := h.Addr
		if addr == "" {
			addr = h.Name
		}
		d.ctlds = append(d.ctlds, net.JoinHostPort(addr, strconv.Itoa(int(cfg.SlurmctldPort))))
	}
	if len(d.ctlds) == 0 {
		return nil, errors.New("slurmd: no SlurmctldHost in the configuration")
	}
	if err := d.listen(); err != nil {
		return nil, err
	}
	d.srv = wire.NewServer(wire.ServerOptions{
		Logger:         d.log,
		MessageTimeout: d.timeout,
		Authenticator:  rpcauth.Authenticator{V: d.verifier()},
		Signer:         d.signer,
	})
	d.srv.HandleRPC(wire.MsgPing, d.fromController(d.handlePing))
	d.srv.HandleRPC(wire.MsgLaunchBatchJob, d.fromController(d.handleLaunchBatch))
	d.srv.HandleRPC(wire.MsgSignalJob, d.fromController(d.handleSignal))
	d.srv.HandleRPC(wire.MsgStepTimeLimit, d.fromController(d.handleStepTimeLimit)) // step_time_limit.go
	d.srv.HandleRPC(wire.MsgTerminateJob, d.fromController(d.handleTerminate))
	d.srv.HandleRPC(wire.MsgForward, d.fromController(d.forwarder())) // forward.go
	d.srv.HandleRPC(wire.MsgHealthCheck, d.fromController(d.handleHealthCheck))
	d.registerSteps()
	d.registerStepQueries() // step_pids.go
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.startRegQueue() // register_batch.go
	d.wg.Add(2)
	go func() {
		defer d.wg.Done()
		if err := d.srv.Serve(d.ln); err != nil && !errors.Is(err, wire.ErrServerClosed) {
			d.log.Error("serving stopped", "err", err)
		}
	}()
	go func() {
		defer d.wg.Done()
		d.healthCheckAtStart() // health_check.go: before the first registration, as Slurm
		d.registrationLoop()
	}()
	d.log.Info("slurmd started", "nodes", hostlist.Compress(d.order), "addr", d.addr, "slurmstepd", d.stepd)
	return d, nil
}

// hostedNames resolves -N (a name or hostlist) or, without it, this host's node.
func hostedNames(cfg *conf.Config, expr string) ([]string, error) {
	if expr != "" {
		names, err := hostlist.Expand(expr)
		if err != nil {
			return nil, fmt.Errorf("slurmd: invalid node name list %q: %v", expr, err)
		}
		for _, n := range names {
			if cfg.Node(n) == nil {
				return nil, fmt.Errorf("slurmd: fatal: Unable to determine this slurmd's NodeName: %s is not in slurm.conf", n)
			}
		}
		return names, nil
	}
	host := auth.ShortHostname()
	for _, n := range cfg.Nodes {
		if n.Name == host || n.Hostname == host {
			return []string{n.Name}, nil
		}
	}
	return nil, errors.New("slurmd: fatal: Unable to determine this slurmd's NodeName")
}

// setupAuth loads the key: slurmd signs its own requests and the auth socket's credentials
// with it, and checks launch credentials against it.
func (d *Daemon) setupAuth() error {
	d.keyPath = auth.KeyPath(d.opts.ConfPath)
	d.admins = []uint32{0, uint32(os.Getuid())}
	if su := d.cfg.SlurmUser; su != "" {
		if u, err := user.Lookup(su); err == nil {
			if id, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
				d.admins = append(d.admins, uint32(id))
			}
		} else if id, err := strconv.ParseUint(su, 10, 32); err == nil {
			d.admins = append(d.admins, uint32(id))
		}
	}
	suite, err := auth.NewSuite(d.cfg.AuthType, d.cfg.CredType, d.cfg.AuthInfo, d.keyPath, nil, d.admins)
	if err != nil {
		return fmt.Errorf("slurmd: %v", err)
	}
	d.auth = suite
	d.signer = suite.Signer
	d.launchV = suite.LaunchVerifier
	// The local auth socket signs with slurm.key for callers that cannot read it; under
	// auth/munge every process asks munged itself.
	if ks, ok := d.signer.(*auth.KeySigner); ok && !d.opts.NoAuthSocket {
		path := rpcauth.SocketPath(d.cfg.AuthInfo)
		if err := os.MkdirAll(filepath.Dir(path), 0755); err == nil {
			if s, err := auth.ListenAuth(path, ks, auth.AuthServerOptions{Logger: d.log}); err == nil {
				d.authSrv = s
				go s.Serve()
			} else {
				d.log.Info("not serving the local auth socket", "path", path, "err", err)
			}
		}
	}
	return nil
}

// verifier checks request credentials (each credential once: one Verifier, so one replay
// cache, serves direct and forwarded requests alike).
func (d *Daemon) verifier() auth.Verifier { return d.auth.Verifier }

// listen opens the one listener of this process.
func (d *Daemon) listen() error {
	first := d.nodes[d.order[0]].node
	addr := d.opts.Listen
	if addr == "" {
		port := uint32(first.Port)
		if port == 0 {
			port = d.cfg.SlurmdPort
		}
		host := ""
		if ip := net.ParseIP(first.Addr); ip != nil {
			host = first.Addr // a configured address; a name may not resolve to this host
		}
		addr = net.JoinHostPort(host, strconv.Itoa(int(port)))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("slurmd: Unable to bind listen port (%s): %v", addr, err)
	}
	d.ln = ln
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = first.Addr // listening everywhere: the controller reaches the node at its NodeAddr
	}
	d.addr = net.JoinHostPort(host, port)
	return nil
}

// Addr is the address the daemon listens on, as registered with the controller.
func (d *Daemon) Addr() string { return d.addr }

// Nodes are the names of the hosted nodes.
func (d *Daemon) Nodes() []string { return slices.Clone(d.order) }

// Spool is the spool directory of a hosted node ("" if not hosted).
func (d *Daemon) Spool(node string) string {
	if h := d.nodes[node]; h != nil {
		return h.spool
	}
	return ""
}

// Close stops serving and registering. Running jobs are not touched: their slurmstepd
// processes live on and a new slurmd finds them again.
func (d *Daemon) Close() error {
	d.closeSpare()
	d.cancel()
	d.srv.Close()
	if d.authSrv != nil {
		d.authSrv.Close()
	}
	d.wg.Wait()
	return nil
}

// privileged reports whether the request comes from root, SlurmUser or this daemon's user
// (the controller when Orbit runs unprivileged).
func (d *Daemon) privileged(req *wire.Request) bool {
	return req.Identity != nil && slices.Contains(d.admins, req.Identity.UID)
}

// fromController wraps a handler of requests the controller sends, noting when one came
// from it (an operator's identity).
func (d *Daemon) fromController(h wire.HandlerFunc) wire.HandlerFunc {
	return func(ctx context.Context, req *wire.Request) (any, error) {
		if d.privileged(req) {
			d.lastCtldMsg.Store(time.Now().Unix())
		}
		return h(ctx, req)
	}
}

func (d *Daemon) handlePing(_ context.Context, req *wire.Request) (any, error) {
	p := req.Body.(*wire.Ping)
	return &wire.PingReply{Seq: p.Seq, SentNanos: p.SentNanos, Load: hostLoad()}, nil // machine.go
}
