package cmdclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Client is one command's connection settings to slurmctld.
type Client struct {
	Prog     string       // the command's name for messages ("sbatch")
	Conf     *conf.Config // the loaded slurm.conf
	ConfPath string
	// Addrs are the controllers to try in order ("host:port"): the primary, then backups.
	Addrs []string
	// MessageTimeout bounds one exchange; ConnectRetries is how many times a refused connect
	// is tried, one second apart (Slurm tries MessageTimeout times).
	MessageTimeout time.Duration
	ConnectRetries int
	// Sleep waits between connect attempts; time.Sleep unless set (tests shorten it).
	Sleep func(time.Duration)

	signer wire.Signer
}

// Load locates and loads slurm.conf (flagPath, then SLURM_CONF, then the default path) and
// prepares a Client. Configuration errors come back as a ConfigError to be printed with
// Fatal.
func Load(prog, flagPath string) (*Client, error) {
	path := conf.Locate(flagPath)
	cfg, err := conf.Load(path)
	// A problem only Slurm's daemons find (a gres.conf mistake, a partition naming an
	// undefined node) does not stop a command, as it does not stop Slurm's.
	if err = conf.CommandErrors(err); err != nil {
		return nil, &ConfigError{Path: path, Err: err}
	}
	printConfWarnings(os.Stderr, prog, cfg.Warnings)
	return New(prog, path, cfg)
}

// printConfWarnings prints the configuration's warnings that Slurm's commands print as
// they read slurm.conf, in Slurm's words ("sinfo: error: Ignoring ControlMachine since
// SlurmctldHost is set.").
func printConfWarnings(w io.Writer, prog string, warnings conf.Errors) {
	for _, e := range warnings {
		if e.Client {
			fmt.Fprintf(w, "%s: error: %s\n", prog, e.Msg)
		}
	}
}

// New prepares a Client for an already loaded configuration.
func New(prog, path string, cfg *conf.Config) (*Client, error) {
	c := &Client{Prog: prog, Conf: cfg, ConfPath: path, Sleep: time.Sleep}
	port := int(cfg.SlurmctldPort)
	if port == 0 {
		port = 6817
	}
	for _, h := range cfg.SlurmctldHosts {
		addr := h.Addr
		if addr == "" {
			addr = h.Name
		}
		c.Addrs = append(c.Addrs, net.JoinHostPort(addr, strconv.Itoa(port)))
	}
	if len(c.Addrs) == 0 {
		return nil, &ConfigError{Path: path, Err: errors.New("No SlurmctldHost defined")}
	}
	mt := cfg.MessageTimeout
	if mt == 0 {
		mt = 10
	}
	c.MessageTimeout = time.Duration(mt) * time.Second
	c.ConnectRetries = int(mt)
	signer, err := newSigner(cfg.AuthType, cfg.AuthInfo, path)
	if err != nil {
		return nil, &ConfigError{Path: path, Err: err, Auth: true}
	}
	c.signer = signer
	return c, nil
}

// ConfigError is a slurm.conf (or key) that cannot be used.
type ConfigError struct {
	Path string
	Err  error
	Auth bool // the credential setup failed, not the file
}

func (e *ConfigError) Error() string { return e.Err.Error() }

// Fatal prints err the way Slurm's commands report a configuration they cannot use (each
// problem as "prog: error: ...", then "prog: fatal: Unable to process configuration file")
// or any other error as "prog: fatal: ...", and exits 1.
func Fatal(w io.Writer, prog string, err error) {
	var ce *ConfigError
	if errors.As(err, &ce) {
		if ce.Auth {
			fmt.Fprintf(w, "%s: error: auth/slurm: %v\n", prog, ce.Err)
			fmt.Fprintf(w, "%s: fatal: failed to initialize auth plugin\n", prog)
			os.Exit(1)
		}
		var errs conf.Errors
		if errors.As(ce.Err, &errs) {
			// In Slurm's words, as its commands print them: no file:line, and a fatal()
			// problem ends the output.
			for _, e := range errs {
				if e.Fatal {
					fmt.Fprintf(w, "%s: fatal: %s\n", prog, e.CommandText())
					os.Exit(1)
				}
				fmt.Fprintf(w, "%s: error: %s\n", prog, e.CommandText())
			}
		} else {
			fmt.Fprintf(w, "%s: error: %v\n", prog, ce.Err)
		}
		fmt.Fprintf(w, "%s: fatal: Unable to process configuration file\n", prog)
		os.Exit(1)
	}
	fmt.Fprintf(w, "%s: fatal: %v\n", prog, err)
	os.Exit(1)
}

// Call sends req to the controller and decodes its reply into resp (a fresh zero value of
// the reply type, or nil for a MsgOK reply). A controller that cannot be reached is tried
// ConnectRetries times, one second apart, on each configured controller (as Slurm's commands
// do), then reported as ErrnoControllerConnection. Every failure is an *Error.
func (c *Client) Call(ctx context.Context, t wire.MsgType, req, resp any) error {
	opts := wire.ClientOptions{MessageTimeout: c.MessageTimeout, Signer: c.signer}
	var cl *wire.Client
	var err error
	tries := max(c.ConnectRetries, 1)
	sleep := c.Sleep
	if sleep == nil {
		sleep = time.Sleep
	}
dial:
	for i := 0; i < tries; i++ {
		if i > 0 {
			sleep(time.Second)
		}
		for _, addr := range c.Addrs {
			if cl, err = wire.Dial(ctx, "tcp", addr, opts); err == nil {
				break dial
			}
			if ctx.Err() != nil {
				break dial
			}
		}
	}
	if err != nil {
		e := NewError(ErrnoControllerConnection)
		e.cause = err
		return e
	}
	defer cl.Close()
	if err := cl.Call(ctx, t, req, resp); err != nil {
		return AsError(err)
	}
	return nil
}

// newSigner signs as slurm.conf's AuthType says: auth/munge asks munged; auth/slurm signs
// with slurm.key when this user can read it, else through slurmd's local auth socket.
func newSigner(authType, authInfo, confPath string) (wire.Signer, error) {
	if authType == "" {
		authType = auth.AuthTypeMunge
	}
	ai, err := auth.ParseAuthInfo(authInfo)
	if err != nil {
		return nil, err
	}
	return auth.SignerFor(authType, auth.KeyPath(confPath), rpcauth.SocketPath(authInfo), ai)
}

// Signer is how this client signs its requests, for commands that also call nodes (srun).
func (c *Client) Signer() wire.Signer { return c.signer }
