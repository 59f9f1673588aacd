package stepdlaunch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A finished batch job leaves a marker in the spool for a while after its end was
// acknowledged: a launch of the same job incarnation that arrives later (a restarted
// controller resends the launch of jobs it recovered as running, and the original run may
// have ended meanwhile) is refused instead of running the job twice. A requeued job is a new
// incarnation (more restarts) and runs.

// DoneMemory is how long a finished job's marker is honoured.
const DoneMemory = 10 * time.Minute

func donePath(spool string, job, restarts uint32) string {
	return filepath.Join(spool, "done", fmt.Sprintf("%d.%d", job, restarts))
}

// MarkDone records that incarnation restarts of job ended here and the controller knows.
func MarkDone(spool string, job, restarts uint32) error {
	p := donePath(spool, job, restarts)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, nil, 0o644)
}

// Done reports whether incarnation restarts of job (or a later one) ended here within
// DoneMemory; markers older than that are removed as it goes, so the folder stays small.
func Done(spool string, job, restarts uint32, now time.Time) bool {
	dir := filepath.Join(spool, "done")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	done := false
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			continue
		}
		if now.Sub(info.ModTime()) > DoneMemory {
			os.Remove(filepath.Join(dir, e.Name()))
			continue
		}
		j, r, ok := strings.Cut(e.Name(), ".")
		jid, err1 := strconv.ParseUint(j, 10, 32)
		rs, err2 := strconv.ParseUint(r, 10, 32)
		if ok && err1 == nil && err2 == nil && uint32(jid) == job && uint32(rs) >= restarts {
			done = true
		}
	}
	return done
}
