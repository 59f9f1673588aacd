package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Reads are for startup: the controller rebuilds its memory from them once, then serves every
// run-time read from memory. They use the pool's other connections, so a read never waits
// behind the writer's queue (WAL lets them run while it commits).

// Load calls fn for every record of kind, in key order. The value is fn's to keep. An error
// from fn stops the scan and is returned.
func (s *Store) Load(kind string, fn func(key string, value []byte) error) error {
	if err := s.readable(); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT key, value FROM records WHERE kind = ? ORDER BY key`, kind)
	if err != nil {
		return openError(s.path, fmt.Errorf("load %s: %w", kind, err))
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var value []byte
		if err := rows.Scan(&key, &value); err != nil {
			return openError(s.path, fmt.Errorf("load %s: %w", kind, err))
		}
		if err := fn(key, value); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return openError(s.path, fmt.Errorf("load %s: %w", kind, err))
	}
	return nil
}

// Counter returns the counter's value; a counter never set reads 0.
func (s *Store) Counter(name string) (int64, error) {
	if err := s.readable(); err != nil {
		return 0, err
	}
	var v int64
	err := s.db.QueryRowContext(context.Background(),
		`SELECT value FROM counters WHERE name = ?`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, openError(s.path, fmt.Errorf("counter %s: %w", name, err))
	}
	return v, nil
}

// AccountingRecord is one row of the append-only accounting table.
type AccountingRecord struct {
	ID    int64 // assigned by the store, increasing in append order
	Kind  string
	Key   string
	Time  int64
	Value []byte
}

// Accounting calls fn for every accounting row with since ≤ Time < until, ordered by Time
// then append order. The record is fn's to keep. An error from fn stops the scan and is
// returned.
func (s *Store) Accounting(since, until int64, fn func(AccountingRecord) error) error {
	if err := s.readable(); err != nil {
		return err
	}
	return s.eachAccounting(`WHERE time >= ? AND time < ?`, []any{since, until}, fn)
}

// eachAccounting calls fn for every accounting record the WHERE clause selects, in time
// order.
func (s *Store) eachAccounting(where string, args []any, fn func(AccountingRecord) error) error {
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT id, kind, key, time, value FROM accounting `+where+` ORDER BY time, id`, args...)
	if err != nil {
		return openError(s.path, fmt.Errorf("accounting: %w", err))
	}
	defer rows.Close()
	for rows.Next() {
		var r AccountingRecord
		if err := rows.Scan(&r.ID, &r.Kind, &r.Key, &r.Time, &r.Value); err != nil {
			return openError(s.path, fmt.Errorf("accounting: %w", err))
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return openError(s.path, fmt.Errorf("accounting: %w", err))
	}
	return nil
}

func (s *Store) readable() error {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	return nil
}
