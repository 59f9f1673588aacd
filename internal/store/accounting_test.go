package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestAccountingSelect: rows are chosen by kind, key prefix, lowest key and time, through
// the indexes created on open; a file reopened keeps working (the indexes exist already).
func TestAccountingSelect(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := new(Batch)
	for id := 1; id <= 5; id++ {
		job := fmt.Sprintf("%010d", id)
		b.AppendAccounting("job", job, int64(100*id), []byte(job))
		b.AppendAccounting("step_start", job+".0000000000", int64(100*id), []byte(job+".0"))
		b.AppendAccounting("step_start", job+".0000000001", int64(100*id+1), []byte(job+".1"))
	}
	if err := s.Commit(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	keys := func(q AccountingQuery) []string {
		t.Helper()
		var out []string
		if err := s.AccountingSelect(q, func(r AccountingRecord) error {
			out = append(out, r.Key)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		q    AccountingQuery
		want []string
	}{
		{AccountingQuery{Kind: "job", Since: 300}, []string{"0000000003", "0000000004", "0000000005"}},
		{AccountingQuery{Kind: "job", Since: 200, Until: 400}, []string{"0000000002", "0000000003"}},
		{AccountingQuery{Kind: "job", KeyFrom: "0000000004"}, []string{"0000000004", "0000000005"}},
		{AccountingQuery{Kind: "step_start", KeyPrefixes: []string{"0000000002.", "0000000005."}},
			[]string{"0000000002.0000000000", "0000000002.0000000001", "0000000005.0000000000", "0000000005.0000000001"}},
		{AccountingQuery{Kind: "step_start", KeyPrefixes: []string{}}, nil},
		{AccountingQuery{Kind: "nothing"}, nil},
	} {
		if got := keys(c.q); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.q, got, c.want)
		}
	}
	if err := s.AccountingSelect(AccountingQuery{}, func(AccountingRecord) error { return nil }); err == nil {
		t.Error("a query without a kind was accepted")
	}
	// Many prefixes run as several statements.
	var many []string
	for id := range 1000 {
		many = append(many, fmt.Sprintf("%010d.", id))
	}
	if got := keys(AccountingQuery{Kind: "step_start", KeyPrefixes: many}); len(got) != 10 {
		t.Errorf("1000 prefixes: %d rows, want 10", len(got))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'accounting_kind_%'`).Scan(&n); err != nil || n != len(accountingIndexes) {
		t.Errorf("accounting indexes: %d, %v", n, err)
	}
	var plan string
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN SELECT id FROM accounting WHERE kind = 'job' AND time >= 5`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a, b, c int
		var d string
		rows.Scan(&a, &b, &c, &d)
		plan += d
	}
	rows.Close()
	if !strings.Contains(plan, "accounting_kind_time") {
		t.Errorf("time query plan %q does not use accounting_kind_time", plan)
	}
}

func TestPrefixEnd(t *testing.T) {
	for in, want := range map[string]string{"0000000012.": "0000000012/", "a\xff": "b", "": ""} {
		got, _ := prefixEnd(in)
		if got != want {
			t.Errorf("prefixEnd(%q) = %q, want %q", in, got, want)
		}
	}
	if _, ok := prefixEnd("\xff\xff"); ok {
		t.Error("prefixEnd(ff ff) has an end")
	}
}

// TestAccountingSelect_UIDs: sacct -u selects in SQL on the uid column; a row without a uid
// (appended without one, or by a file written before the column existed, which gains it on
// open) matches every uid filter, so the caller can still check it.
func TestAccountingSelect_UIDs(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	b := new(Batch)
	b.AppendAccountingUID("job", "0000000001", 100, 1000, []byte("a"))
	b.AppendAccountingUID("job", "0000000002", 200, 1001, []byte("b"))
	b.AppendAccountingUID("job", "0000000003", 300, 0, []byte("c"))
	b.AppendAccounting("job", "0000000004", 400, []byte("d"))
	commitT(t, s, b)
	keys := func(s *Store, q AccountingQuery) []string {
		t.Helper()
		var out []string
		if err := s.AccountingSelect(q, func(r AccountingRecord) error {
			out = append(out, r.Key)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		uids []uint32
		want []string
	}{
		{nil, []string{"0000000001", "0000000002", "0000000003", "0000000004"}},
		{[]uint32{1000}, []string{"0000000001", "0000000004"}},
		{[]uint32{0}, []string{"0000000003", "0000000004"}},
		{[]uint32{1001, 1000}, []string{"0000000001", "0000000002", "0000000004"}},
		{[]uint32{7}, []string{"0000000004"}},
	} {
		if got := keys(s, AccountingQuery{Kind: "job", UIDs: c.uids}); !slices.Equal(got, c.want) {
			t.Errorf("UIDs %v: %q, want %q", c.uids, got, c.want)
		}
	}
	if got := keys(s, AccountingQuery{Kind: "job", UIDs: []uint32{1001}, Since: 250}); len(got) != 1 || got[0] != "0000000004" {
		t.Errorf("UIDs with Since: %q", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A file from before the column: its rows read back through a uid filter, and new rows
	// carry their uid.
	old := t.TempDir()
	s2 := openT(t, old, Options{})
	p2 := s2.Path()
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	rawExec(t, p2,
		`DROP INDEX accounting_kind_uid_time`,
		`ALTER TABLE accounting DROP COLUMN uid`,
		`INSERT INTO accounting (kind, key, time, value) VALUES ('job', '0000000009', 5, x'00')`)
	s2 = openT(t, old, Options{})
	b = new(Batch)
	b.AppendAccountingUID("job", "0000000010", 6, 42, []byte("e"))
	b.AppendAccountingUID("job", "0000000011", 7, 43, []byte("f"))
	commitT(t, s2, b)
	if got := keys(s2, AccountingQuery{Kind: "job", UIDs: []uint32{42}}); !slices.Equal(got, []string{"0000000009", "0000000010"}) {
		t.Errorf("migrated file, UIDs [42]: %q", got)
	}
}
