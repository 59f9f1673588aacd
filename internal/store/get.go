package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Get reads one record at run time: the value of (kind, key) and whether it exists. It is
// for values the controller deliberately keeps out of memory — a batch job's script and
// environment, read back when the job is launched — so it reads committed state only: a
// value is visible once the batch that put it has committed (Commit returned, or its
// Pending's Wait did). Like Load it uses the pool's reader connections and never waits
// behind the writer's queue.
func (s *Store) Get(kind, key string) ([]byte, bool, error) {
	if err := s.readable(); err != nil {
		return nil, false, err
	}
	var v []byte
	err := s.db.QueryRowContext(context.Background(),
		`SELECT value FROM records WHERE kind = ? AND key = ?`, kind, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: %s: get %s %q: %w", s.path, kind, key, err)
	}
	return v, true, nil
}
