package ctld

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Controller administration from scontrol: show config (Slurm's REQUEST_BUILD_INFO),
// reconfigure and shutdown.

func (c *Controller) registerAdmin() {
	c.srv.HandleRPC(wire.MsgBuildInfo, c.handleBuildInfo)
	c.srv.HandleRPC(wire.MsgReconfigure, c.handleReconfigure)
	c.srv.HandleRPC(wire.MsgShutdown, c.handleShutdown)
	c.srv.HandleRPC(wire.MsgSetDebugLevel, c.handleSetDebugLevel) // debug_level.go
	c.srv.HandleRPC(wire.MsgSetDebugFlags, c.handleSetDebugFlags)
	c.srv.HandleRPC(wire.MsgSetSchedLog, c.handleSetSchedLog)
	c.srv.HandleRPC(wire.MsgSetFSDampening, c.handleSetFSDampening)
	// sbatch/srun --test-only (job_will_run.go): a job message, registered here so that
	// controller.go's table stays as it is.
	c.srv.HandleRPC(wire.MsgJobWillRun, c.handleJobWillRun)
}

// handleBuildInfo renders the configuration the controller runs with, as `scontrol show
// config` prints it, without the controller status lines (the command pings for those).
func (c *Controller) handleBuildInfo(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	r := req.Body.(*wire.BuildInfoRequest)
	match := false
	if data, err := os.ReadFile(c.config().Path); err == nil {
		sum := sha256.Sum256(data)
		match = bytes.Equal(sum[:], r.ConfHash)
	}
	c.mu.RLock()
	next := c.t.nextJobID
	c.mu.RUnlock()
	level, flags := c.admin.get()
	text := c.config().ShowConfig(conf.ShowConfigRuntime{
		DataAsOf:  c.now(),
		BootTime:  c.booted,
		HashMatch: match,
		NextJobID: next,
		// slurmd -N runs several slurmd on one host, as Slurm built with
		// --enable-multiple-slurmd (Debian's build) does.
		MultipleSlurmd: true,
		ConfPath:       c.config().Path,
		Version:        version.Slurm,

		SlurmctldDebug: level,
		DebugFlags:     flags,

		FairShareDampeningFactor: c.admin.dampening(),
	})
	return &wire.BuildInfoReply{Text: text}, nil
}

// handleReconfigure is in reconfigure.go.

// handleShutdown serves `scontrol shutdown`: operators only. The reply goes out first; the
// server then stops, which ends slurmctld's main loop (every acknowledged change is already
// durable). Orbit's slurmd keep running either way: `shutdown` without "slurmctld" does not
// stop them yet.
func (c *Controller) handleShutdown(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	c.log.Info("shutdown requested", "uid", id.UID)
	go func() {
		time.Sleep(100 * time.Millisecond) // let the reply reach the caller
		c.srv.Close()
	}()
	return &wire.OK{}, nil
}
