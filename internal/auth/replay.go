package auth

import (
	"container/heap"
	"sync"
)

// replayCache remembers the nonces of accepted credentials until they could no longer be
// accepted anyway (expiry plus skew), then forgets them. A min-heap ordered by that time
// makes forgetting O(log n) per entry, so the cache holds only live credentials and its size
// is bounded by max.
type replayCache struct {
	mu   sync.Mutex
	seen map[[16]byte]struct{}
	byAt forgetHeap
	max  int
}

type forgetEntry struct {
	at    int64 // unix seconds after which the nonce is forgotten
	nonce [16]byte
}

type forgetHeap []forgetEntry

func (h forgetHeap) Len() int           { return len(h) }
func (h forgetHeap) Less(i, j int) bool { return h[i].at < h[j].at }
func (h forgetHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *forgetHeap) Push(x any)        { *h = append(*h, x.(forgetEntry)) }
func (h *forgetHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func newReplayCache(max int) *replayCache {
	if max <= 0 {
		max = DefaultMaxNonces
	}
	return &replayCache{seen: make(map[[16]byte]struct{}), max: max}
}

// remember records nonce until forgetAt, or reports ErrReplayed if it is already recorded,
// or ErrReplayCacheFull if the cache is at its bound after forgetting what has expired.
func (r *replayCache) remember(nonce [16]byte, forgetAt, now int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.byAt) > 0 && r.byAt[0].at < now {
		e := heap.Pop(&r.byAt).(forgetEntry)
		delete(r.seen, e.nonce)
	}
	if _, dup := r.seen[nonce]; dup {
		return ErrReplayed
	}
	if len(r.seen) >= r.max {
		return ErrReplayCacheFull
	}
	r.seen[nonce] = struct{}{}
	heap.Push(&r.byAt, forgetEntry{at: forgetAt, nonce: nonce})
	return nil
}

func (r *replayCache) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}
