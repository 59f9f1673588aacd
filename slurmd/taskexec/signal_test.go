package taskexec

import (
	"os/signal"
	"syscall"
	"testing"
)

// ignorePipe makes the test process ignore SIGPIPE and returns what undoes it.
func ignorePipe(t *testing.T) func() {
	t.Helper()
	signal.Ignore(syscall.SIGPIPE)
	return func() { signal.Reset(syscall.SIGPIPE) }
}
