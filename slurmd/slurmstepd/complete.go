package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// completeDeadline bounds how long the stepd keeps trying to report the end of the job. A
// controller down longer than this learns the job's end from the node's registration (the job
// is no longer among its RunningJobs).
const completeDeadline = 10 * time.Minute

// controllers is how a stepd reaches slurmctld: its addresses, primary first, and how
// requests are signed.
type controllers struct {
	addrs   []string
	timeout time.Duration
	signer  auth.Signer
}

// newControllers signs as slurm.conf's AuthType says: munged for auth/munge, else
// slurm.key at keyPath (launch files written before AuthType was recorded mean auth/slurm).
func newControllers(addrs []string, messageTimeout int, authType, authInfo, keyPath string) (*controllers, error) {
	c := &controllers{addrs: addrs, timeout: time.Duration(messageTimeout) * time.Second}
	if c.timeout <= 0 {
		c.timeout = wire.DefaultMessageTimeout
	}
	if len(addrs) == 0 {
		return nil, errors.New("no controller address")
	}
	if authType == auth.AuthTypeMunge {
		ai, err := auth.ParseAuthInfo(authInfo)
		if err != nil {
			return nil, err
		}
		c.signer = &auth.MungeSigner{Socket: ai.Socket, TTL: ai.TTL}
		return c, nil
	}
	key, err := auth.LoadKey(keyPath)
	if err != nil {
		return nil, err
	}
	c.signer = auth.NewKeySigner(key, uint32(os.Getuid()), uint32(os.Getgid()))
	return c, nil
}

// tell sends one request to the controllers in turn until one acknowledges it, backing off
// between rounds, for at most within. The requests sent this way are ones the controller
// treats a repeat of as a no-op, so a reply lost after the controller applied it does no
// harm.
func (c *controllers) tell(typ wire.MsgType, body any, jobID uint32, within time.Duration, log *slog.Logger) error {
	deadline := time.Now().Add(within)
	backoff := 50 * time.Millisecond
	var last error
	for attempt := 1; ; attempt++ {
		for _, addr := range c.addrs {
			ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
			err := wire.Call(ctx, "tcp", addr, typ, body, nil, wire.ClientOptions{MessageTimeout: c.timeout, Signer: c.signer})
			cancel()
			if err == nil {
				return nil
			}
			var we *wire.Error
			if errors.As(err, &we) && we.Unwrap() == nil {
				// The controller answered and refused (say, a job it no longer knows):
				// repeating the request cannot change its mind.
				log.Warn("controller refused the request", "job", jobID, "ctld", addr, "err", err)
				return nil
			}
			last = err
			log.Debug("request not acknowledged", "job", jobID, "ctld", addr, "attempt", attempt, "err", err)
		}
		if time.Now().Add(backoff).After(deadline) {
			return fmt.Errorf("controller did not acknowledge the request for job %d within %v: %v", jobID, within, last)
		}
		time.Sleep(backoff)
		backoff = min(2*backoff, 10*time.Second)
	}
}

// reportComplete sends MsgBatchJobComplete until a controller acknowledges it.
func reportComplete(b *stepdlaunch.Batch, c *wire.BatchJobComplete, log *slog.Logger) error {
	ctl, err := newControllers(b.CtldAddrs, b.MessageTimeout, b.AuthType, b.AuthInfo, b.KeyPath)
	if err != nil {
		return err
	}
	return ctl.tell(wire.MsgBatchJobComplete, c, c.JobID, completeDeadline, log)
}
