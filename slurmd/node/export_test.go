package node

import "testing"

// SetLaunchChecked makes fn run inside every batch launch between its check for a running
// slurmstepd of the job and its check for the job's done marker, until the test ends.
func SetLaunchChecked(t testing.TB, fn func(job uint32)) {
	launchChecked.Store(&fn)
	t.Cleanup(func() { launchChecked.Store(nil) })
}
