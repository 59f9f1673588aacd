package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// SchemaVersion is the layout of orbit_state.db this package reads and writes. It is raised
// with every incompatible change, and Open migrates older files forward. A file written by a
// newer Orbit is refused rather than misread (see ErrSchemaTooNew).
const SchemaVersion = 1

// applicationID marks the file as Orbit's in SQLite's header ("ORBT"), so that Open refuses
// some other program's database put in StateSaveLocation instead of adding tables to it.
const applicationID = 0x4f524254

// ErrSchemaTooNew is returned (wrapped) by Open for a state file written by a newer Orbit.
var ErrSchemaTooNew = errors.New("state file was written by a newer Orbit")

// ErrNotStateFile is returned (wrapped) by Open for a SQLite database that is not Orbit's.
var ErrNotStateFile = errors.New("not an Orbit state file")

// The data model is one generic records table keyed by (kind, key), not one table per kind.
// The controller decides what kinds exist (job, step, node, reservation...) and how their
// values are encoded; one table means a new kind needs no schema change or migration, and
// startup loads a kind with one range scan of the primary key. It is an ordinary rowid table
// (not WITHOUT ROWID) because values can be large — a batch job's script and environment —
// and SQLite keeps large rows better out of the key b-tree.
//
// accounting is append-only: finished jobs are added and never updated, so sacct can read a
// time range through the time index while the controller keeps appending.
var schemaV1 = []string{
	`CREATE TABLE records (
		kind  TEXT NOT NULL,
		key   TEXT NOT NULL,
		value BLOB NOT NULL,
		PRIMARY KEY (kind, key)
	)`,
	`CREATE TABLE counters (
		name  TEXT PRIMARY KEY NOT NULL,
		value INTEGER NOT NULL
	)`,
	`CREATE TABLE accounting (
		id    INTEGER PRIMARY KEY AUTOINCREMENT,
		kind  TEXT NOT NULL,
		key   TEXT NOT NULL,
		time  INTEGER NOT NULL,
		value BLOB NOT NULL
	)`,
	`CREATE INDEX accounting_time ON accounting (time)`,
}

// initSchema creates a fresh file's tables, or checks an existing file's version, inside one
// immediate transaction so that two racing first starts cannot both create the schema.
func initSchema(conn execQuerier, path string) (err error) {
	if _, err := conn.Exec(`BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("store: %s: begin schema check: %w", path, err)
	}
	defer func() {
		if err != nil {
			conn.Exec(`ROLLBACK`)
		}
	}()

	var appID int64
	if err := conn.QueryRow(`PRAGMA application_id`).Scan(&appID); err != nil {
		return fmt.Errorf("store: %s: read application_id: %w", path, err)
	}
	var tables int
	if err := conn.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table'`).Scan(&tables); err != nil {
		return fmt.Errorf("store: %s: read schema: %w", path, err)
	}
	switch {
	case appID == 0 && tables == 0:
		// A new, empty file: create everything.
		for _, stmt := range schemaV1 {
			if _, err := conn.Exec(stmt); err != nil {
				return fmt.Errorf("store: %s: create schema: %w", path, err)
			}
		}
		if _, err := conn.Exec(`CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)`); err != nil {
			return fmt.Errorf("store: %s: create schema: %w", path, err)
		}
		if _, err := conn.Exec(`INSERT INTO meta (key, value) VALUES ('schema_version', ?)`, strconv.Itoa(SchemaVersion)); err != nil {
			return fmt.Errorf("store: %s: write schema version: %w", path, err)
		}
		if _, err := conn.Exec(`PRAGMA application_id = ` + strconv.Itoa(applicationID)); err != nil {
			return fmt.Errorf("store: %s: write application_id: %w", path, err)
		}
	case appID != applicationID:
		return fmt.Errorf("store: %s: %w (application_id %#x, %d tables); move it away", path, ErrNotStateFile, appID, tables)
	default:
		v, err := readSchemaVersion(conn)
		if err != nil {
			return fmt.Errorf("store: %s: %w", path, err)
		}
		if v > SchemaVersion {
			return fmt.Errorf("store: %s: %w: schema version %d, this Orbit supports up to %d; refusing to open it (run the newer Orbit, or restore a backup)",
				path, ErrSchemaTooNew, v, SchemaVersion)
		}
		if v < 1 {
			return fmt.Errorf("store: %s: %w: invalid schema version %d", path, ErrNotStateFile, v)
		}
		// Migrations from older versions go here, one step per version, as they arrive.
	}
	if err := createAccountingIndexes(conn, path); err != nil {
		return err
	}
	if _, err := conn.Exec(`COMMIT`); err != nil {
		return fmt.Errorf("store: %s: commit schema: %w", path, err)
	}
	return nil
}

func readSchemaVersion(conn execQuerier) (int, error) {
	var s string
	err := conn.QueryRow(`SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: no schema version in meta", ErrNotStateFile)
	}
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: schema version %q is not a number", ErrNotStateFile, s)
	}
	return v, nil
}
