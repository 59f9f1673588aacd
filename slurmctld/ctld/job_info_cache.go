package ctld

import (
	"cmp"
	"slices"
	"sync"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// The packed job-info path (MsgJobInfo with Packed: squeue, scontrol show job) encodes each
// selected job straight into the reply buffer, one JobInfo at a time, under the read lock.
//
// It keeps no per-job cache. An earlier version kept every job's packed JobInfo between
// queries (about 450 bytes per job for a real queue) and built the uncached jobs' JobInfo
// values all at once before packing them (a kilobyte each): after one squeue of a
// 100,000-job queue the controller held some 45 MB more for good and had peaked 100 MB
// higher, for a query that costs about a microsecond per job to build afresh. Slurm also
// packs the job list anew for each query, under its job read lock (pack_all_jobs).

// jobInfoCache is what the packed path keeps between queries: the size of the last reply
// per job, so the next one's buffer is allocated once at about the size it needs instead of
// growing by doubling (each doubling copies the reply and leaves the old one as garbage).
type jobInfoCache struct {
	mu     sync.Mutex
	perJob int // bytes per job of the last packed reply
}

// packedJobInfo answers a Packed job-info request; refs says the client reads repeated
// strings as references (wire.JobInfoPacker), which make the reply a third smaller.
func (c *Controller) packedJobInfo(f *jobFilter, refs bool) *wire.JobInfoReply {
	cache := &c.jobCache
	c.mu.RLock()
	defer c.mu.RUnlock()
	now := c.now().Unix()
	f.noteHidden(c.t)
	recs := make([]*jobRecord, 0, min(len(c.t.jobs), 1024))
	for _, j := range c.t.jobs {
		if f.keep(j) {
			recs = append(recs, j)
		}
	}
	slices.SortFunc(recs, func(a, b *jobRecord) int { return cmp.Compare(a.JobID, b.JobID) })

	cache.mu.Lock()
	perJob := cache.perJob
	cache.mu.Unlock()
	if perJob == 0 {
		// A first guess: about what a job takes in a real queue's list. Too large a guess
		// costs the excess for the whole reply (a 100,000-job queue's first listing held 30
		// MB it never used); too small, one doubling.
		perJob = 512
		if refs {
			perJob = 256
		}
	}
	// A little over the last size per job: one allocation in the common case, and at most
	// one doubling when the queue's jobs grew.
	// The buffer leaves room for the reply and its frame around the list, so the server
	// sends it where it lies (wire.NewPackedJobList).
	b := wire.AppendJobInfoListHeader(wire.NewPackedJobList(4096+len(recs)*perJob*9/8), len(recs))
	header := len(b)
	var info wire.JobInfo
	var packer wire.JobInfoPacker
	for _, j := range recs {
		info = c.jobInfoShown(j, now)
		if refs {
			b = packer.Append(b, &info)
		} else {
			b = wire.AppendJobInfo(b, &info)
		}
	}
	if len(recs) > 0 {
		cache.mu.Lock()
		cache.perJob = (len(b) - header + len(recs) - 1) / len(recs)
		cache.mu.Unlock()
	}
	return wire.PackedJobInfoReply(now, b)
}
