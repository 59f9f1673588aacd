package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// writerStmts are the writer connection's prepared statements, parsed once at Open.
type writerStmts struct {
	begin, commit, rollback          *sql.Stmt
	savepoint, release, rollbackTo   *sql.Stmt
	put, del, setCounter, accounting *sql.Stmt
}

func (w *writerStmts) prepare(ctx context.Context, c *sql.Conn) error {
	for _, s := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.begin, `BEGIN IMMEDIATE`},
		{&w.commit, `COMMIT`},
		{&w.rollback, `ROLLBACK`},
		{&w.savepoint, `SAVEPOINT batch`},
		{&w.release, `RELEASE batch`},
		{&w.rollbackTo, `ROLLBACK TO batch`},
		{&w.put, `INSERT INTO records (kind, key, value) VALUES (?, ?, ?)
			ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value`},
		{&w.del, `DELETE FROM records WHERE kind = ? AND key = ?`},
		{&w.setCounter, `INSERT INTO counters (name, value) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value`},
		{&w.accounting, `INSERT INTO accounting (kind, key, time, value, uid) VALUES (?, ?, ?, ?, ?)`},
	} {
		st, err := c.PrepareContext(ctx, s.sql)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", s.sql, err)
		}
		*s.dst = st
	}
	return nil
}

func (w *writerStmts) close() {
	for _, st := range []*sql.Stmt{w.begin, w.commit, w.rollback, w.savepoint, w.release,
		w.rollbackTo, w.put, w.del, w.setCounter, w.accounting} {
		if st != nil {
			st.Close()
		}
	}
}

// written is a group whose transaction has committed, waiting for the log's fsync.
type written struct {
	group  []*Pending
	failed int // batches of the group that failed alone
	start  time.Time
}

// commitGroup writes a group of batches in one transaction. Batches fail alone: a batch
// whose statements fail is rolled back alone and reported failed, and the others of the
// group still commit. Only a failure of the transaction itself (BEGIN, COMMIT: a full disk,
// an I/O error) fails the whole group, and then truly nothing of it was written, so its
// waiters are released at once. A committed group goes to the syncer (syncLoop), which
// releases its waiters once the log is on disk.
//
// It reports whether the group went to the syncer.
func (s *Store) commitGroup(group []*Pending, toSync chan<- written) bool {
	start := time.Now()
	failed := 0
	groupErr := s.writeGroup(group, &failed)
	if groupErr != nil {
		for _, p := range group {
			if p.err == nil {
				p.err = groupErr
			}
		}
		s.recordGroup(len(group), len(group), false, time.Since(start))
		release(group)
		return false
	}
	toSync <- written{group: group, failed: failed, start: start}
	return true
}

// release answers a group's waiters (each p.err is final).
func release(group []*Pending) {
	for _, p := range group {
		p.batch = nil // let the batch's memory go as soon as the waiter has its answer
		close(p.done)
	}
}

// syncLoop is the syncer: it fsyncs the write-ahead log after each group's COMMIT, then
// releases that group's waiters — so a waiter hears "durable" only once its batch is on
// disk, as synchronous=FULL would have it. It runs beside the writer, so the next group is
// written while this one's fsync runs, and one fsync covers every group committed before it
// began. A failed fsync fails its groups with ErrOutcomeUnknown (their transactions were
// written but may not be on disk) and, since Linux may drop the pages a failed fsync did not
// write, every later group too.
// Each group synced frees one of the writer's slots (run).
func (s *Store) syncLoop(toSync <-chan written, slots <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	var batch []written
	for w := range toSync {
		batch = append(batch[:0], w)
	more:
		for {
			select {
			case w, ok := <-toSync:
				if !ok {
					break more
				}
				batch = append(batch, w)
			default:
				break more
			}
		}
		err := s.syncLog()
		for _, w := range batch {
			if err != nil {
				for _, p := range w.group {
					if p.err == nil {
						p.err = fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
					}
				}
			}
			s.recordGroup(len(w.group), w.failed, err == nil, time.Since(w.start))
			release(w.group)
			<-slots
		}
		clear(batch)
	}
}

// syncLog fsyncs the write-ahead log (and, the first time, the directory holding it, so a
// log created by this store is found after a power loss). The writer's connection keeps the
// log open for the store's life, so the file is never removed under it.
func (s *Store) syncLog() error {
	if s.syncErr != nil {
		return s.syncErr
	}
	if s.wal == nil {
		f, err := os.OpenFile(s.path+"-wal", os.O_RDWR, 0)
		if err != nil {
			s.syncErr = fmt.Errorf("store: open the write-ahead log: %w", err)
			return s.syncErr
		}
		s.wal = f
		if d, err := os.Open(s.dir); err == nil {
			err = d.Sync()
			d.Close()
			if err != nil {
				s.syncErr = fmt.Errorf("store: sync %s: %w", s.dir, err)
				return s.syncErr
			}
		}
	}
	// fdatasync, as SQLite's own sync of the log: the data and the size, not the times.
	if err := unix.Fdatasync(int(s.wal.Fd())); err != nil {
		s.syncErr = fmt.Errorf("store: sync the write-ahead log: %w", err)
	}
	return s.syncErr
}

// writeGroup runs the group's batches in one transaction. It first runs them without
// savepoints (two statements fewer per batch); only when a batch fails does it roll the
// transaction back and run them again each in its own savepoint (writeGroupIsolated), so the
// failing one is rolled back alone. Batches are deterministic, so the rerun writes the same.
func (s *Store) writeGroup(group []*Pending, failed *int) error {
	w := &s.stmts
	if _, err := w.begin.Exec(); err != nil {
		return fmt.Errorf("store: begin transaction: %w", err)
	}
	ok := true
	for _, p := range group {
		if err := s.applyBatch(p.batch); err != nil {
			ok = false
			break
		}
	}
	if !ok {
		if _, err := w.rollback.Exec(); err != nil {
			return fmt.Errorf("store: roll back a group to isolate a failed batch: %w", err)
		}
		return s.writeGroupIsolated(group, failed)
	}
	if _, err := w.commit.Exec(); err != nil {
		// SQLite may already have rolled back; a second ROLLBACK then fails harmlessly.
		w.rollback.Exec()
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// writeGroupIsolated runs each batch of the group inside its own savepoint.
func (s *Store) writeGroupIsolated(group []*Pending, failed *int) error {
	w := &s.stmts
	if _, err := w.begin.Exec(); err != nil {
		return fmt.Errorf("store: begin transaction: %w", err)
	}
	for _, p := range group {
		if _, err := w.savepoint.Exec(); err != nil {
			w.rollback.Exec()
			return fmt.Errorf("store: savepoint: %w", err)
		}
		if err := s.applyBatch(p.batch); err != nil {
			p.err = fmt.Errorf("store: batch not written: %w", err)
			*failed++
			if _, rerr := w.rollbackTo.Exec(); rerr != nil {
				w.rollback.Exec()
				return fmt.Errorf("store: rollback of a failed batch: %w (batch error: %v)", rerr, err)
			}
		}
		if _, err := w.release.Exec(); err != nil {
			w.rollback.Exec()
			return fmt.Errorf("store: release savepoint: %w", err)
		}
	}
	if _, err := w.commit.Exec(); err != nil {
		// SQLite may already have rolled back; a second ROLLBACK then fails harmlessly.
		w.rollback.Exec()
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// applyBatch runs one batch's statements. It is deterministic: no clock, no randomness; ids
// and times come in the batch from the caller.
func (s *Store) applyBatch(b *Batch) error {
	w := &s.stmts
	for i, o := range b.ops {
		var err error
		switch o.kind {
		case opPut:
			_, err = w.put.Exec(o.rkind, o.key, o.value)
		case opDelete:
			_, err = w.del.Exec(o.rkind, o.key)
		case opSetCounter:
			_, err = w.setCounter.Exec(o.rkind, o.n)
		case opAppendAccounting:
			_, err = w.accounting.Exec(o.rkind, o.key, o.n, o.value, o.uid)
		default:
			err = errors.New("unknown mutation")
		}
		if err != nil {
			return fmt.Errorf("mutation %d (%s %q %q): %w", i+1, o.kind, o.rkind, o.key, err)
		}
	}
	return nil
}

func (k opKind) String() string {
	switch k {
	case opPut:
		return "put"
	case opDelete:
		return "delete"
	case opSetCounter:
		return "set counter"
	case opAppendAccounting:
		return "append accounting"
	}
	return fmt.Sprintf("op(%d)", uint8(k))
}
