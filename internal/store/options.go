package store

import "time"

// Options tunes a Store. The zero value is a sensible default for a controller.
type Options struct {
	// MaxGroupBatches caps how many queued batches one SQLite transaction may carry. A
	// larger group amortises one fsync over more batches; a cap keeps one group's latency
	// bounded. Default 1024.
	MaxGroupBatches int
	// QueueDepth is how many batches may wait for the writer before Enqueue blocks; it is the
	// back-pressure point when the disk is slower than the callers. Default 8192.
	QueueDepth int
	// BusyTimeout is how long SQLite waits for a lock held by another connection (a reader
	// at startup, or an admin's sqlite3 shell) before failing. Default 5s.
	BusyTimeout time.Duration
}

const (
	defaultMaxGroupBatches = 1024
	defaultQueueDepth      = 8192
	defaultBusyTimeout     = 5 * time.Second
)

func (o Options) withDefaults() Options {
	if o.MaxGroupBatches <= 0 {
		o.MaxGroupBatches = defaultMaxGroupBatches
	}
	if o.QueueDepth <= 0 {
		o.QueueDepth = defaultQueueDepth
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = defaultBusyTimeout
	}
	return o
}
