package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	// The SQLite driver (cgo). It registers itself as "sqlite3".
	_ "github.com/mattn/go-sqlite3"
)

// FileName is the state database in StateSaveLocation.
const FileName = "orbit_state.db"

// ErrClosed is returned by Commit and Enqueue after Close, and by reads on a closed Store.
var ErrClosed = errors.New("store: closed")

// Store is the controller's durable state. It is safe for concurrent use.
type Store struct {
	dir  string
	path string
	opts Options
	lock *dirLock
	db   *sql.DB

	// The writer's own connection and statements: only the writer goroutine touches them
	// after Open returns.
	wconn *sql.Conn
	stmts writerStmts

	// closeMu orders Enqueue's send against Close's close of queue: senders hold it shared,
	// Close exclusively, so no batch is ever sent on a closed channel.
	closeMu sync.RWMutex
	closed  bool
	queue   chan *Pending
	done    chan struct{} // closed when the writer and the syncer have drained queue and exited

	// The syncer's handle on the write-ahead log, opened at its first sync, and the error
	// of a failed sync, which sticks (group.go's syncLog).
	wal     *os.File
	syncErr error

	statsMu sync.Mutex
	stats   statCounters
}

// Open opens (creating if needed) the state in dir — slurm.conf's StateSaveLocation — and
// starts its writer. Only one Store may hold a directory at a time, across processes: a second
// Open fails with ErrLocked naming the holder's PID. A corrupt or foreign file, or one written
// by a newer Orbit, is refused with an error naming the file.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("store: StateSaveLocation is empty")
	}
	opts = opts.withDefaults()
	// 0700: the state holds every job's script and environment, which only SlurmUser may read.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create StateSaveLocation: %w", err)
	}
	path := filepath.Join(dir, FileName)
	// go-sqlite3 cuts the file name at the first '?' to find its parameters.
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store: StateSaveLocation %q contains '?' or '#', which SQLite cannot open", dir)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, path: path, opts: opts, lock: lock}
	if err := s.openDB(); err != nil {
		s.closeDB()
		lock.release()
		return nil, err
	}
	s.queue = make(chan *Pending, opts.QueueDepth)
	s.done = make(chan struct{})
	go s.run()
	return s, nil
}

// dsn sets the PRAGMAs on every connection the pool opens, not just the first one:
//
//   - journal_mode=WAL: a commit appends to the write-ahead log and needs one fsync of the
//     log, instead of the rollback journal's fsyncs of journal and database; readers at
//     startup do not block the writer.
//   - synchronous=NORMAL, and the store fsyncs the log itself after every COMMIT before it
//     answers the group's waiters (group.go's syncLoop): a batch reported durable survives
//     power loss as well as kill -9, as with FULL, but the fsync runs beside the writing of
//     the next group instead of inside COMMIT. (NORMAL alone would fsync only at
//     checkpoints; SQLite still syncs the log before and the database after each one.)
//   - busy_timeout: wait, rather than fail at once, when another connection holds the lock.
//   - _txlock=immediate: every transaction takes the write lock at BEGIN, so a transaction
//     never fails half-way with SQLITE_BUSY upgrading from a read lock.
func (s *Store) dsn() string {
	return fmt.Sprintf("%s?_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=%d&_txlock=immediate",
		s.path, s.opts.BusyTimeout.Milliseconds())
}

func (s *Store) openDB() error {
	db, err := sql.Open("sqlite3", s.dsn())
	if err != nil {
		return fmt.Errorf("store: open %s: %w", s.path, err)
	}
	s.db = db
	// One connection for the writer, held for the Store's life, and a few for startup reads.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxLifetime(0)
	ctx := context.Background()
	s.wconn, err = db.Conn(ctx)
	if err != nil {
		return openError(s.path, err)
	}
	// The DSN asked for these; check that SQLite agreed, since a file system without shared
	// memory support silently keeps another journal mode.
	var mode string
	if err := s.wconn.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return openError(s.path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("store: %s: journal_mode is %q, want wal (does the file system support shared memory?)", s.path, mode)
	}
	var syncMode int
	if err := s.wconn.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&syncMode); err != nil {
		return openError(s.path, err)
	}
	if syncMode < 1 {
		return fmt.Errorf("store: %s: synchronous is %d, want 1 (NORMAL) or more", s.path, syncMode)
	}
	if err := initSchema(connCtx{ctx, s.wconn}, s.path); err != nil {
		return corruptHint(err)
	}
	if err := s.stmts.prepare(ctx, s.wconn); err != nil {
		return openError(s.path, err)
	}
	return nil
}

// openError names the file in an error from SQLite, and explains the usual cause.
func openError(path string, err error) error {
	return corruptHint(fmt.Errorf("store: %s: %w", path, err))
}

// corruptHint tells an admin what to do when SQLite finds the file damaged.
func corruptHint(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") {
		return fmt.Errorf("%w (the state file is corrupt: restore it from a backup, or move it away to start with empty state)", err)
	}
	return err
}

func (s *Store) closeDB() error {
	s.stmts.close()
	var errs []error
	if s.wal != nil {
		s.wal.Close()
	}
	if s.wconn != nil {
		errs = append(errs, s.wconn.Close())
	}
	if s.db != nil {
		errs = append(errs, s.db.Close())
	}
	return errors.Join(errs...)
}

// Close stops accepting batches, waits until every batch already queued is committed (or has
// failed) and its waiter released, then closes the database and releases the directory lock.
// Close is idempotent.
func (s *Store) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	close(s.queue)
	s.closeMu.Unlock()
	<-s.done
	err := s.closeDB()
	if lerr := s.lock.release(); lerr != nil && err == nil {
		err = lerr
	}
	return err
}

// Path is the state database's file name.
func (s *Store) Path() string { return s.path }

// execQuerier is what initSchema needs from a connection.
type execQuerier interface {
	Exec(query string, args ...any) (sql.Result, error)
	QueryRow(query string, args ...any) *sql.Row
}

// connCtx binds a context to a *sql.Conn for the few statements run at Open.
type connCtx struct {
	ctx  context.Context
	conn *sql.Conn
}

func (c connCtx) Exec(q string, args ...any) (sql.Result, error) {
	return c.conn.ExecContext(c.ctx, q, args...)
}

func (c connCtx) QueryRow(q string, args ...any) *sql.Row {
	return c.conn.QueryRowContext(c.ctx, q, args...)
}
