package cluster

import (
	"testing"

	"github.com/orbit-hpc/orbit/internal/testmunge"
)

// startMunged starts the cluster's private munged under dir and returns its socket.
func startMunged(t testing.TB, dir string) string {
	t.Helper()
	return testmunge.Start(t, dir)
}
