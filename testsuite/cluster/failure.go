package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a failed cluster test prints, in this order: the test's failure messages as they
// happen; when the test ends (stop), the tail of every daemon's log, once; and last a summary
// that repeats the failures reported through Errorf and Fatalf. CI keeps only the end of a
// long log, so the assertion that failed must come after the logs, not only before them.

// Errorf is t.Errorf that the failure summary repeats after the daemons' logs.
func (c *Cluster) Errorf(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	c.note(msg)
	t.Error(msg)
}

// Fatalf is t.Fatalf that the failure summary repeats after the daemons' logs.
func (c *Cluster) Fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	c.note(msg)
	t.Fatal(msg)
}

// note records a failure message for the summary. Errorf may be called from the test's
// other goroutines, hence the lock.
func (c *Cluster) note(msg string) {
	c.failMu.Lock()
	defer c.failMu.Unlock()
	c.failures = append(c.failures, msg)
}

// summary prints the failures noted, after the logs (stop calls it last).
func (c *Cluster) summary(t testing.TB) {
	c.failMu.Lock()
	defer c.failMu.Unlock()
	if len(c.failures) == 0 {
		t.Logf("==== FAILED: the test's failure messages are printed above the daemons' logs")
		return
	}
	t.Logf("==== FAILED (%d failures; the daemons' logs are above):\n%s", len(c.failures),
		strings.Join(c.failures, "\n"))
}

// dumpLogs copies the tail of the daemons' logs into the test log, so a failure explains
// itself. stop calls it once, when the test has failed.
func (c *Cluster) dumpLogs(t testing.TB) {
	files, _ := filepath.Glob(filepath.Join(c.Dir, "log", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) == 0 {
			continue
		}
		if len(b) > 8000 {
			b = b[len(b)-8000:]
		}
		t.Logf("==== %s (tail)\n%s", filepath.Base(f), b)
	}
}
