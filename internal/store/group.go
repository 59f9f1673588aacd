package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
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
		{&w.accounting, `INSERT INTO accounting (kind, key, time, value) VALUES (?, ?, ?, ?)`},
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

// commitGroup writes a group of batches in one transaction, and releases each waiter with its
// own result. Each batch runs inside its own savepoint: a batch whose statements fail is
// rolled back to its savepoint alone and reported failed, and the others of the group still
// commit. Only a failure of the transaction itself (BEGIN, COMMIT: a full disk, an I/O error)
// fails the whole group, and then truly nothing of it was written.
func (s *Store) commitGroup(group []*Pending) {
	start := time.Now()
	failed := 0
	groupErr := s.writeGroup(group, &failed)
	if groupErr != nil {
		failed = len(group)
		for _, p := range group {
			if p.err == nil {
				p.err = groupErr
			}
		}
	}
	s.recordGroup(len(group), failed, groupErr == nil, time.Since(start))
	for _, p := range group {
		p.batch = nil // let the batch's memory go as soon as the waiter has its answer
		close(p.done)
	}
}

func (s *Store) writeGroup(group []*Pending, failed *int) error {
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
			_, err = w.accounting.Exec(o.rkind, o.key, o.n, o.value)
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
