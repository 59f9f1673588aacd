package ctld

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Slurm 22.05's defaults for the SchedulerParameters that pace the scheduling loop.
const (
	defaultSchedMinInterval = 2 * time.Microsecond // sched_min_interval=2 (microseconds)
	defaultBatchSchedDelay  = 3 * time.Second      // batch_sched_delay=3 (seconds)
	// batchDutyFactor spaces submit-driven passes by this many times the last pass's
	// duration (capped at batch_sched_delay), so a burst of submits leaves the state lock to
	// the submitters at least this many times as long as the scheduler holds it.
	batchDutyFactor = 10
)

// schedPacing is how the scheduling loop paces its passes (SchedulerParameters).
type schedPacing struct {
	// minInterval is sched_min_interval: the least time from the end of one pass to the
	// start of the next, whatever woke the loop.
	minInterval time.Duration
	// batchDelay is batch_sched_delay: how long the pass for batch submits may be put off.
	batchDelay time.Duration
	// deferAll is defer: batch submits always wait the whole batchDelay; without it they wait
	// only as long as the last pass took times batchDutyFactor (so a lone submit on a quiet
	// cluster is scheduled at once).
	deferAll bool
	// fullInterval is sched_interval in seconds: how often Slurm's main scheduler runs
	// unprompted (-1: never), which is when it stamps the jobs it looks at (sched_eval.go).
	fullInterval int64
}

// parseSchedPacing reads the pacing options out of SchedulerParameters. A bad value is an
// error naming the option, and Slurm's default is used for it, as slurmctld logs and falls
// back. Options that do not pace the loop are not looked at here.
func parseSchedPacing(s string) (schedPacing, error) {
	p := schedPacing{minInterval: defaultSchedMinInterval, batchDelay: defaultBatchSchedDelay}
	params, err := scheduler.ParseParams(s)
	p.minInterval = time.Duration(params.SchedMinInterval) * time.Microsecond
	p.deferAll = params.Defer
	p.fullInterval = int64(params.SchedInterval)
	for _, opt := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(opt), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "batch_sched_delay") {
			continue
		}
		n, perr := strconv.Atoi(strings.TrimSpace(val))
		switch {
		case perr != nil:
			err = joinErr(err, fmt.Errorf("invalid SchedulerParameters batch_sched_delay: %q is not a number", val))
		case n < 0:
			err = joinErr(err, fmt.Errorf("invalid SchedulerParameters batch_sched_delay: %d (must be 0 or more)", n))
		case n > 1<<20:
			err = joinErr(err, fmt.Errorf("invalid SchedulerParameters batch_sched_delay: %d (too large)", n))
		default:
			p.batchDelay = time.Duration(n) * time.Second
		}
	}
	return p, err
}

func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	return fmt.Errorf("%w; %w", a, b)
}

// batchWait is how long after the start of the last submit-driven pass the next one may
// run, given how long the last pass took.
func (p schedPacing) batchWait(lastTook time.Duration) time.Duration {
	if p.deferAll {
		return p.batchDelay
	}
	return min(p.batchDelay, batchDutyFactor*lastTook)
}
