package main

import (
	"context"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// keepAllocAlive tells the controller, every third of InactiveLimit, that the srun holding
// an interactive allocation is still there: slurmctld ends an allocation it has not heard
// of for InactiveLimit (Slurm's controller pings srun instead; a stopped or killed srun
// goes unheard either way). The returned function stops it. Without InactiveLimit it does
// nothing.
func (s *session) keepAllocAlive(ctx context.Context) (stop func()) {
	limit := time.Duration(s.c.Conf.InactiveLimit) * time.Second
	if limit <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(max(limit/3, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				var info wire.JobAllocInfo
				s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: s.jobID}, &info)
			}
		}
	}()
	return func() { cancel(); <-done }
}
