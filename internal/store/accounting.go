package store

import (
	"fmt"
	"strings"
)

// Accounting reads for sacct. The controller appends rows (AppendAccounting) and asks for
// them by kind, key prefix and time, so a query over a day of a busy site reads that day's
// rows through an index instead of the whole table.

// accountingIndexes are created on every open with IF NOT EXISTS, so a file written before
// they existed gains them without a schema version change (an older Orbit reading the file
// ignores them). accounting_time (schemaV1) stays for Accounting's plain time range.
//
// The uid column (added by createAccountingIndexes when missing, for the same reason) holds
// the user of a row that has one (a job: AppendAccountingUID), so `sacct -u` selects in SQL;
// rows appended without one, or by an older Orbit, have NULL there and match every uid
// filter (the caller decodes them and checks the user itself).
var accountingIndexes = []string{
	// Rows of one kind by key (a job's rows, its steps' rows) and key ranges.
	`CREATE INDEX IF NOT EXISTS accounting_kind_key ON accounting (kind, key)`,
	// Rows of one kind in a time range (jobs that ended after a window's start).
	`CREATE INDEX IF NOT EXISTS accounting_kind_time ON accounting (kind, time)`,
	// One user's rows of one kind in a time range (sacct -u).
	`CREATE INDEX IF NOT EXISTS accounting_kind_uid_time ON accounting (kind, uid, time)`,
}

// createAccountingIndexes runs inside initSchema's transaction.
func createAccountingIndexes(conn execQuerier, path string) error {
	var n int
	if err := conn.QueryRow(`SELECT count(*) FROM pragma_table_info('accounting') WHERE name = 'uid'`).Scan(&n); err != nil {
		return fmt.Errorf("store: %s: read accounting columns: %w", path, err)
	}
	if n == 0 {
		if _, err := conn.Exec(`ALTER TABLE accounting ADD COLUMN uid INTEGER`); err != nil {
			return fmt.Errorf("store: %s: add accounting uid column: %w", path, err)
		}
	}
	for _, stmt := range accountingIndexes {
		if _, err := conn.Exec(stmt); err != nil {
			return fmt.Errorf("store: %s: create accounting index: %w", path, err)
		}
	}
	return nil
}

// AccountingQuery selects accounting rows: every condition set must hold.
type AccountingQuery struct {
	Kind string // required
	// KeyPrefixes: rows whose key starts with one of them; nil = any key. An empty
	// (non-nil) list selects nothing.
	KeyPrefixes []string
	KeyFrom     string // rows whose key is ≥ KeyFrom; "" = no bound
	Since       int64  // rows with Time ≥ Since; 0 = no bound
	Until       int64  // rows with Time < Until; 0 = no bound
	// UIDs: rows appended with one of these user ids, or with none (NULL: a row that has no
	// user, or one written before the column existed); nil = any.
	UIDs []uint32
}

// maxPrefixesPerQuery bounds one SELECT's OR list (SQLite's default limit is 32766
// variables); longer lists run as several queries.
const maxPrefixesPerQuery = 400

// AccountingSelect calls fn for every row q selects, ordered by Time then append order
// within each group of at most maxPrefixesPerQuery key prefixes. The record is fn's to
// keep. An error from fn stops the scan and is returned.
func (s *Store) AccountingSelect(q AccountingQuery, fn func(AccountingRecord) error) error {
	if err := s.readable(); err != nil {
		return err
	}
	if q.Kind == "" {
		return fmt.Errorf("store: accounting query without a kind")
	}
	if q.KeyPrefixes == nil {
		return s.accountingSelect(q, nil, fn)
	}
	for len(q.KeyPrefixes) > 0 {
		n := min(len(q.KeyPrefixes), maxPrefixesPerQuery)
		if err := s.accountingSelect(q, q.KeyPrefixes[:n], fn); err != nil {
			return err
		}
		q.KeyPrefixes = q.KeyPrefixes[n:]
	}
	return nil
}

func (s *Store) accountingSelect(q AccountingQuery, prefixes []string, fn func(AccountingRecord) error) error {
	var where strings.Builder
	args := []any{q.Kind}
	where.WriteString(`kind = ?`)
	if len(prefixes) > 0 {
		// A prefix is the key range [p, next(p)), which the (kind, key) index answers.
		where.WriteString(` AND (`)
		for i, p := range prefixes {
			if i > 0 {
				where.WriteString(` OR `)
			}
			if hi, ok := prefixEnd(p); ok {
				where.WriteString(`(key >= ? AND key < ?)`)
				args = append(args, p, hi)
			} else {
				where.WriteString(`key >= ?`)
				args = append(args, p)
			}
		}
		where.WriteString(`)`)
	}
	if q.KeyFrom != "" {
		where.WriteString(` AND key >= ?`)
		args = append(args, q.KeyFrom)
	}
	if q.Since != 0 {
		where.WriteString(` AND time >= ?`)
		args = append(args, q.Since)
	}
	if q.Until != 0 {
		where.WriteString(` AND time < ?`)
		args = append(args, q.Until)
	}
	if q.UIDs != nil {
		where.WriteString(` AND (uid IS NULL OR uid IN (`)
		for i, u := range q.UIDs {
			if i > 0 {
				where.WriteString(`, `)
			}
			where.WriteString(`?`)
			args = append(args, int64(u))
		}
		where.WriteString(`))`)
	}
	return s.eachAccounting(`WHERE `+where.String(), args, fn)
}

// prefixEnd is the smallest string greater than every string starting with p; ok is false
// when there is none (p is all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// AppendAccountingUID is AppendAccounting for a row that belongs to user uid (a finished
// job), so AccountingQuery.UIDs can select it in SQL.
func (b *Batch) AppendAccountingUID(kind, key string, time int64, uid uint32, value []byte) {
	b.check("kind", kind)
	b.check("key", key)
	b.ops = append(b.ops, op{kind: opAppendAccounting, rkind: kind, key: key, n: time,
		uid: int64(uid), value: append([]byte{}, value...)})
}
