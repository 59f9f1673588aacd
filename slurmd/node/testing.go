package node

import (
	"io"
	"log/slog"
	"testing"

	"github.com/orbit-hpc/orbit/conf"
)

// StartTest starts a real slurmd in-process for the slurm.conf at confPath, listening on
// 127.0.0.1 with a port from the OS (unless opts.Listen says otherwise), and stops it when
// the test ends. opts.StepdPath must name a built slurmstepd (tests get one from
// internal/testbin, which this package may not import). The local auth socket is not served,
// so tests can run several daemons at once. Jobs started by the daemon are not killed at the
// end: a test that leaves jobs running must terminate them.
func StartTest(t testing.TB, confPath string, opts Options) *Daemon {
	t.Helper()
	if opts.StepdPath == "" {
		t.Fatal("node.StartTest: Options.StepdPath is empty; pass testbin.Path(t, \"slurmd/slurmstepd\")")
	}
	cfg, err := conf.Load(confPath)
	if err != nil {
		t.Fatalf("node.StartTest: %v", err)
	}
	opts.ConfPath, opts.Config, opts.NoAuthSocket = confPath, cfg, true
	if opts.Logger == nil && !testing.Verbose() {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	d, err := Start(opts)
	if err != nil {
		t.Fatalf("node.StartTest: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
