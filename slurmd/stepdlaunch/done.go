package stepdlaunch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
// DoneMemory. It reads the folder's names only and looks at the times of this job's markers:
// a launch must not cost a stat per job the node ran lately. Markers older than DoneMemory
// are removed as it goes, at most once per pruneEvery per folder, so the folder stays small.
func Done(spool string, job, restarts uint32, now time.Time) bool {
	dir := filepath.Join(spool, "done")
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	prune := pruneDue(dir, now)
	done := false
	for _, name := range names {
		j, r, ok := strings.Cut(name, ".")
		jid, err1 := strconv.ParseUint(j, 10, 32)
		rs, err2 := strconv.ParseUint(r, 10, 32)
		mine := ok && err1 == nil && err2 == nil && uint32(jid) == job && uint32(rs) >= restarts
		if !mine && !prune {
			continue
		}
		info, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if now.Sub(info.ModTime()) > DoneMemory {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		done = done || mine
	}
	return done
}

// pruneEvery is how often Done sweeps a folder for expired markers.
const pruneEvery = DoneMemory / 10

// pruned records when each done folder was last swept (one slurmd serves many spools).
var pruned struct {
	sync.Mutex
	at map[string]time.Time
}

// pruneDue says whether dir is due for a sweep of expired markers, and if so records now.
func pruneDue(dir string, now time.Time) bool {
	pruned.Lock()
	defer pruned.Unlock()
	if last, ok := pruned.at[dir]; ok && now.Sub(last) < pruneEvery && !now.Before(last) {
		return false
	}
	if pruned.at == nil {
		pruned.at = map[string]time.Time{}
	}
	pruned.at[dir] = now
	return true
}
