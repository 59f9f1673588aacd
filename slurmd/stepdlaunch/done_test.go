package stepdlaunch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDone_MarkersAndExpiry: a marker answers for its incarnation and earlier ones, not for
// later ones or other jobs; an expired marker answers for nothing and is swept away.
func TestDone_MarkersAndExpiry(t *testing.T) {
	spool := t.TempDir()
	now := time.Now()
	if Done(spool, 7, 0, now) {
		t.Fatal("Done with no done folder")
	}
	for _, m := range [][2]uint32{{7, 1}, {70, 0}, {8, 0}} {
		if err := MarkDone(spool, m[0], m[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		job, restarts uint32
		want          bool
	}{{7, 0, true}, {7, 1, true}, {7, 2, false}, {70, 0, true}, {9, 0, false}} {
		if got := Done(spool, c.job, c.restarts, now); got != c.want {
			t.Errorf("Done(%d, %d) = %v, want %v", c.job, c.restarts, got, c.want)
		}
	}
	// job 8's marker expires: it no longer answers, and the next sweep removes it.
	old := now.Add(-DoneMemory - time.Minute)
	p := filepath.Join(spool, "done", "8.0")
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if Done(spool, 8, 0, now) {
		t.Error("an expired marker still answers")
	}
	later := now.Add(pruneEvery + time.Second)
	Done(spool, 1, 0, later)
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("expired marker not swept: %v", err)
	}
	if !Done(spool, 7, 1, later) {
		t.Error("a live marker was swept")
	}
}
