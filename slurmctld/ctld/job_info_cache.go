package ctld

import (
	"cmp"
	"slices"
	"sync"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// The packed job-info path (MsgJobInfo with Packed): each job's encoded JobInfo is kept
// until its record is replaced. Records are immutable once installed (tables.go), so the
// record pointer is the cache key's heart; the few inputs that live outside the record are
// checked beside it (the configuration, the memory a pending job's TRES assumes). Jobs whose
// shown fields depend on other jobs (dependencies) or on the last plan (an expected start)
// are never cached.

// packedJob is one job's packed JobInfo, valid while rec, cfg and defMem are unchanged.
type packedJob struct {
	rec    *jobRecord
	cfg    *conf.Config
	defMem uint64
	b      []byte
}

// jobInfoCache holds the packed jobs of one controller.
type jobInfoCache struct {
	mu   sync.Mutex
	jobs map[uint32]*packedJob
}

// packedEntry is one selected job while a reply is assembled: its cached bytes, or the info
// built under the lock and packed after it.
type packedEntry struct {
	id   uint32
	b    []byte
	info *wire.JobInfo
	keep *packedJob // to store once packed; nil when the job must not be cached
}

// packedJobInfo answers a Packed job-info request.
func (c *Controller) packedJobInfo(f *jobFilter) *wire.JobInfoReply {
	cache := &c.jobCache
	c.mu.RLock()
	now := c.now().Unix()
	entries := make([]packedEntry, 0, len(c.t.jobs))
	cache.mu.Lock()
	if len(cache.jobs) > 2*len(c.t.jobs)+1024 {
		for id := range cache.jobs { // forget jobs that are gone
			if c.t.jobs[id] == nil {
				delete(cache.jobs, id)
			}
		}
	}
	for _, j := range c.t.jobs {
		if !f.keep(j) {
			continue
		}
		e := packedEntry{id: j.JobID}
		defMem := c.defaultJobMem(j)
		if p := cache.jobs[j.JobID]; p != nil && p.rec == j && p.cfg == c.config() && p.defMem == defMem {
			e.b = p.b
		} else {
			info := c.jobInfoShown(j, now)
			e.info = &info
			if _, _, planned := c.expectedStart(j.JobID); j.Desc.Dependency == "" && !planned {
				e.keep = &packedJob{rec: j, cfg: c.config(), defMem: defMem}
			}
		}
		entries = append(entries, e)
	}
	cache.mu.Unlock()
	c.mu.RUnlock()

	slices.SortFunc(entries, func(a, b packedEntry) int { return cmp.Compare(a.id, b.id) })
	size := 2048 // the list header and key table
	for i := range entries {
		e := &entries[i]
		if e.info != nil {
			e.b = wire.AppendJobInfo(nil, e.info)
			if e.keep != nil {
				e.keep.b = e.b
			}
		}
		size += len(e.b)
	}
	b := wire.AppendJobInfoListHeader(make([]byte, 0, size), len(entries))
	for i := range entries {
		b = append(b, entries[i].b...)
	}

	cache.mu.Lock()
	for i := range entries {
		if k := entries[i].keep; k != nil {
			cache.jobs[entries[i].id] = k
		}
	}
	cache.mu.Unlock()
	return &wire.JobInfoReply{LastUpdate: now, Packed: b}
}
