package node

import (
	"testing"
	"time"
)

// SetLaunchChecked makes fn run inside every batch launch between its check for a running
// slurmstepd of the job and its check for the job's done marker, until the test ends.
func SetLaunchChecked(t testing.TB, fn func(job uint32)) {
	launchChecked.Store(&fn)
	t.Cleanup(func() { launchChecked.Store(nil) })
}

// SetSlowStartLimit sets how long an acknowledged slurmstepd may take to start its script,
// beyond a message timeout, until the test ends.
func SetSlowStartLimit(t testing.TB, d time.Duration) {
	old := slowStartLimit.Swap(int64(d))
	t.Cleanup(func() { slowStartLimit.Store(old) })
}

// SparePid is the pid of the daemon's spare slurmstepd, or 0 while it has none.
func (d *Daemon) SparePid() int {
	d.spares.mu.Lock()
	defer d.spares.mu.Unlock()
	if d.spares.spare == nil {
		return 0
	}
	return d.spares.spare.cmd.Process.Pid
}
