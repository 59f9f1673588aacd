package main

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The controller's garbage-collector policy.
//
// Go's default (GOGC=100) lets the heap grow to twice what is live before collecting, and
// gives freed pages back to the system only slowly. That suits a program whose live heap is
// small next to its allocation rate; the controller is the opposite: its live heap is its
// tables (about a kilobyte per queued job), large and long-lived, and its garbage comes in
// bursts (a wave of submissions, a query over the whole queue). Under GOGC=100 a controller
// holding 130 MB of jobs sat at 320 MB resident. So, unless the operator chose with GOGC
// or GOMEMLIMIT (then the runtime's settings are theirs), the controller keeps a soft memory
// limit that follows its live heap: what survived the last collection, plus an eighth of it
// (at least limitFloor) for the garbage between collections, plus the runtime's own
// overhead (stacks, metadata). Reaching the limit starts a collection, and the runtime
// returns pages above it to the system promptly rather than over minutes. Nothing is
// refused: a limit is soft, so a burst that needs more memory (a reply listing 100,000 jobs)
// gets it, the collector merely working harder meanwhile (the runtime caps that at half the
// CPU), and the next update raises the limit if the live heap grew. GOGC stays at its
// default as the bound when the limit is higher than it.

// limitFloor is the least room the limit leaves above the live heap: small heaps would
// otherwise be collected after every few allocations. (16 MB collected two and a half times
// as often during a 100,000-job ingest and slowed it by 40%.)
const limitFloor = 32 << 20

// limitEvery is how often the limit follows the live heap. Between updates the live heap
// grows by at most what the controller ingests in that time (a few MB at a thousand
// submissions a second), well inside the room left.
const limitEvery = time.Second

// settleTicks bounds the collections forced after a burst (followLiveHeap): a live heap that
// really grew costs at most this many extra collections.
const settleTicks = 5

// operatorSetsGC says whether the environment sets the collector's policy.
func operatorSetsGC() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// followLiveHeap keeps the soft memory limit at the live heap plus room until ctx ends, unless
// the operator set GOGC or GOMEMLIMIT.
func followLiveHeap(ctx context.Context, log *slog.Logger) {
	if operatorSetsGC() {
		log.Debug("garbage collector settings from the environment", "GOGC", os.Getenv("GOGC"), "GOMEMLIMIT", os.Getenv("GOMEMLIMIT"))
		return
	}
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	// read returns the live heap, the runtime's overhead beside the heap (stacks, GC and
	// span metadata, buffers) and the collections so far.
	read := func() (live, overhead, gcs uint64) {
		metrics.Read(samples)
		var v [7]uint64
		for i, s := range samples {
			if s.Value.Kind() == metrics.KindUint64 {
				v[i] = s.Value.Uint64()
			}
		}
		heap := v[2] + v[3] + v[4] + v[5]
		return v[0], v[1] - min(heap, v[1]), v[6]
	}
	var base uint64 // the live heap before a burst
	settle := 0     // ticks left to collect a burst's garbage in
	var lastGCs uint64
	update := func() {
		live, overhead, gcs := read()
		// A collection that ran while a burst's buffers were live (a reply listing the whole
		// queue) leaves the limit raised by them after they die, and a quiet controller does
		// not collect again for minutes. So after the live heap jumps, a tick on which no
		// collection ran collects and returns the free pages, for up to settleTicks ticks or
		// until the heap is back near where it was.
		switch {
		case live > base+limitFloor && settle == 0:
			settle = settleTicks
		case settle > 0 && live <= base+limitFloor:
			settle = 0
		case settle > 0 && gcs == lastGCs:
			settle--
			debug.FreeOSMemory()
			live, overhead, gcs = read()
		case settle > 0:
			settle--
		}
		if settle == 0 {
			base = live
		}
		lastGCs = gcs
		debug.SetMemoryLimit(int64(live + max(live/8, limitFloor) + overhead))
	}
	update()
	go func() {
		t := time.NewTicker(limitEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				update()
			}
		}
	}()
}
