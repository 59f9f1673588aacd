package node

import (
	"log/slog"

	"github.com/orbit-hpc/orbit/conf"
)

// Options configure a Daemon.
type Options struct {
	// ConfPath is the slurm.conf that was read: jobs see it as SLURM_CONF, and slurm.key is
	// looked up beside it (auth.KeyPath).
	ConfPath string
	// Config is the loaded configuration.
	Config *conf.Config
	// NodeNames is slurmd -N: one node name, or a hostlist expression for Orbit's bulk
	// emulation form ("n[1-16]": every node in one process, one listener). Empty: the node
	// whose NodeName or NodeHostname is this host's short name.
	NodeNames string
	// StepdPath is slurmd -d: the slurmstepd program. Empty: "slurmstepd" beside this
	// process's executable.
	StepdPath string
	// Listen overrides the listen address (host:port); empty: the first node's NodeAddr (when
	// it is an IP address, else every address) and Port (else SlurmdPort).
	Listen string
	// Logger receives the daemon's logs; nil: slog.Default().
	Logger *slog.Logger
	// LogFile is where slurmstepd processes log ("" = nowhere, or slurmd's stderr if Debug).
	LogFile string
	// Debug raises slurmstepd's log level and, without LogFile, lets it write to stderr.
	Debug bool
	// LogLevels are slurmd's logfile and syslog levels by name, as srun --slurmd-debug
	// reports them (slurmd's command line decides them). Empty: slurm.conf's SlurmdDebug and
	// "quiet", as for a slurmd in the foreground.
	LogLevels [2]string
	// NoAuthSocket skips serving the local auth socket (tests run several daemons at once).
	NoAuthSocket bool
	// DeadNodesFile is the emulation's test-only list of nodes that do not answer (see
	// DeadNodesEnv, which it overrides; "" = the environment's).
	DeadNodesFile string
}
