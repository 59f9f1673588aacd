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

// reportComplete sends MsgBatchJobComplete to the controllers in turn until one acknowledges
// it, backing off between rounds. The controller treats a repeat as a no-op, so a reply lost
// after the controller applied the report does no harm.
func reportComplete(b *stepdlaunch.Batch, c *wire.BatchJobComplete, log *slog.Logger) error {
	signer, err := completionSigner(b)
	if err != nil {
		return err
	}
	timeout := time.Duration(b.MessageTimeout) * time.Second
	if timeout <= 0 {
		timeout = wire.DefaultMessageTimeout
	}
	if len(b.CtldAddrs) == 0 {
		return errors.New("no controller address")
	}
	deadline := time.Now().Add(completeDeadline)
	backoff := 50 * time.Millisecond
	var last error
	for attempt := 1; ; attempt++ {
		for _, addr := range b.CtldAddrs {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			err := wire.Call(ctx, "tcp", addr, wire.MsgBatchJobComplete, c, nil, wire.ClientOptions{MessageTimeout: timeout, Signer: signer})
			cancel()
			if err == nil {
				return nil
			}
			var we *wire.Error
			if errors.As(err, &we) && we.Unwrap() == nil {
				// The controller answered and refused (say, a job it no longer knows):
				// repeating the report cannot change its mind.
				log.Warn("controller refused the completion", "job", c.JobID, "ctld", addr, "err", err)
				return nil
			}
			last = err
			log.Debug("completion not acknowledged", "job", c.JobID, "ctld", addr, "attempt", attempt, "err", err)
		}
		if time.Now().Add(backoff).After(deadline) {
			return fmt.Errorf("controller did not acknowledge the end of job %d within %v: %v", c.JobID, completeDeadline, last)
		}
		time.Sleep(backoff)
		backoff = min(2*backoff, 10*time.Second)
	}
}

// completionSigner signs as slurm.conf's AuthType says: munged for auth/munge, else
// slurm.key (launch files written before AuthType was recorded mean auth/slurm).
func completionSigner(b *stepdlaunch.Batch) (auth.Signer, error) {
	if b.AuthType == auth.AuthTypeMunge {
		ai, err := auth.ParseAuthInfo(b.AuthInfo)
		if err != nil {
			return nil, err
		}
		return &auth.MungeSigner{Socket: ai.Socket, TTL: ai.TTL}, nil
	}
	key, err := auth.LoadKey(b.KeyPath)
	if err != nil {
		return nil, err
	}
	return auth.NewKeySigner(key, uint32(os.Getuid()), uint32(os.Getgid())), nil
}
