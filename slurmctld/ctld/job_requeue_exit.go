package ctld

import (
	"strconv"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
)

// RequeueExit and RequeueExitHold (Slurm's _set_job_requeue_exit_value): a batch job whose
// script exits with one of RequeueExit's codes is requeued when it ends, whatever its
// --requeue says, and waits for the requeue delay as after scontrol requeue; one of
// RequeueExitHold's codes requeues it held, in state SPECIAL_EXIT, until released. A job
// cancelled meanwhile is not requeued. The lists are ranges as Slurm reads them ("1,3-5").

// requeueExitCodes reads a RequeueExit list: the exit codes 0-255 it names.
func requeueExitCodes(list string) map[int]bool {
	if list == "" {
		return nil
	}
	names, err := hostlist.Expand("[" + list + "]")
	if err != nil {
		return nil
	}
	codes := map[int]bool{}
	for _, s := range names {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 255 {
			codes[n] = true
		}
	}
	return codes
}

// requeueOnExit says whether a batch job ending as ch says is to be requeued instead, and
// held (RequeueExitHold).
func (c *Controller) requeueOnExit(ch endJob) (requeue, hold bool) {
	if ch.state == states.JobCancelled {
		return false, false
	}
	code := int(ch.exitCode>>8) & 0xff // WEXITSTATUS
	cf := c.config()
	if l, _ := cf.Get("RequeueExit"); requeueExitCodes(l)[code] {
		return true, false
	}
	if l, _ := cf.Get("RequeueExitHold"); requeueExitCodes(l)[code] {
		return true, true
	}
	return false, false
}
