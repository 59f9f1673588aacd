package ctld

import (
	"hash/maphash"
	"reflect"
	"runtime"
	"sync"
	"weak"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Job descriptions are shared between jobs that were submitted with the same one.
//
// A job's description (wire.JobDesc, about 580 bytes of fields) is most of what a pending
// job costs in memory once its script and environment are in the store
// (job_record_script.go), and a queue is mostly jobs submitted the same way: a loop of
// sbatch calls, a workflow tool, a user resubmitting the same script. Records never modify
// a description once installed (tables.go), so jobs whose descriptions are equal can point
// at one copy. The table below finds that copy; it holds it weakly, so a description goes
// when the last job using it does, and its entry with it.

// descTable maps a description's hash to the shared copy with that hash.
var descTable struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[uint64]weak.Pointer[wire.JobDesc]
}

// shareDesc returns the shared description equal to d, making d the shared one when there
// is none. d must not be changed afterwards (by anyone: it may now be another job's).
func shareDesc(d *wire.JobDesc) *wire.JobDesc {
	b, err := wire.Marshal(d)
	if err != nil {
		return d // not shared; nothing is wrong with the job
	}
	t := &descTable
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.seed = maphash.MakeSeed()
		t.m = map[uint64]weak.Pointer[wire.JobDesc]{}
	}
	k := maphash.Bytes(t.seed, b)
	if w, ok := t.m[k]; ok {
		// Equal encodings are not enough: a nil and an empty list encode alike.
		if s := w.Value(); s != nil && reflect.DeepEqual(s, d) {
			return s
		}
	}
	// The first of its kind, or the hash's previous holder is gone or (rarely) differs:
	// d takes the entry.
	t.m[k] = weak.Make(d)
	runtime.AddCleanup(d, forgetDesc, k)
	return d
}

// forgetDesc removes k's entry once the description it points to is collected (not when
// another description has taken the entry meanwhile).
func forgetDesc(k uint64) {
	t := &descTable
	t.mu.Lock()
	defer t.mu.Unlock()
	if w, ok := t.m[k]; ok && w.Value() == nil {
		delete(t.m, k)
	}
}
