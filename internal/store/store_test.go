package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func openT(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func commitT(t *testing.T, s *Store, b *Batch) {
	t.Helper()
	if err := s.Commit(context.Background(), b); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

func loadAll(t *testing.T, s *Store, kind string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	if err := s.Load(kind, func(k string, v []byte) error { m[k] = v; return nil }); err != nil {
		t.Fatalf("Load(%s): %v", kind, err)
	}
	return m
}

func TestStore_RoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state") // Open creates it
	s := openT(t, dir, Options{})

	var b Batch
	b.Put("job", "1", []byte("first"))
	b.Put("job", "2", []byte("second"))
	b.Put("job", "3", nil)
	b.Put("node", "n1", []byte{0, 1, 2, 0xff})
	b.SetCounter("next_job_id", 4)
	b.AppendAccounting("job", "1", 100, []byte("acct-1"))
	commitT(t, s, &b)

	var b2 Batch
	b2.Put("job", "2", []byte("second, updated"))
	b2.Delete("job", "1")
	b2.Delete("job", "no-such-job")
	b2.SetCounter("next_job_id", 5)
	b2.AppendAccounting("job", "2", 50, []byte("acct-2"))
	b2.AppendAccounting("job", "1", 200, []byte("acct-1-again"))
	commitT(t, s, &b2)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// Everything must come back from the file, not from memory.
	s = openT(t, dir, Options{})
	jobs := loadAll(t, s, "job")
	want := map[string][]byte{"2": []byte("second, updated"), "3": {}}
	if len(jobs) != len(want) {
		t.Fatalf("jobs = %q, want %q", jobs, want)
	}
	for k, v := range want {
		if !bytes.Equal(jobs[k], v) {
			t.Errorf("job %s = %q, want %q", k, jobs[k], v)
		}
	}
	if nodes := loadAll(t, s, "node"); !bytes.Equal(nodes["n1"], []byte{0, 1, 2, 0xff}) || len(nodes) != 1 {
		t.Errorf("nodes = %q", nodes)
	}
	if got := loadAll(t, s, "reservation"); len(got) != 0 {
		t.Errorf("unknown kind loaded %q", got)
	}
	for _, tc := range []struct {
		name string
		want int64
	}{{"next_job_id", 5}, {"never_set", 0}} {
		if got, err := s.Counter(tc.name); err != nil || got != tc.want {
			t.Errorf("Counter(%s) = %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}

	for _, tc := range []struct {
		since, until int64
		want         []string
	}{
		{0, 1000, []string{"2@50:acct-2", "1@100:acct-1", "1@200:acct-1-again"}},
		{50, 200, []string{"2@50:acct-2", "1@100:acct-1"}},
		{101, 200, nil},
		{200, 201, []string{"1@200:acct-1-again"}},
	} {
		var got []string
		err := s.Accounting(tc.since, tc.until, func(r AccountingRecord) error {
			if r.Kind != "job" || r.ID <= 0 {
				t.Errorf("accounting row %+v", r)
			}
			got = append(got, fmt.Sprintf("%s@%d:%s", r.Key, r.Time, r.Value))
			return nil
		})
		if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Accounting(%d, %d) = %q, %v; want %q", tc.since, tc.until, got, err, tc.want)
		}
	}

	// An error from the callback stops the scan and comes back as is.
	stop := errors.New("stop")
	n := 0
	if err := s.Load("job", func(string, []byte) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Load with failing callback = %v after %d calls", err, n)
	}

	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("StateSaveLocation mode = %v, %v; want 0700", st.Mode().Perm(), err)
	}
}

func TestBatch_Invalid(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	for _, tc := range []struct {
		name  string
		build func(*Batch)
		want  string
	}{
		{"empty kind", func(b *Batch) { b.Put("", "1", nil) }, "empty kind"},
		{"empty key", func(b *Batch) { b.Put("job", "1", nil); b.Delete("job", "") }, "mutation 2: empty key"},
		{"empty counter", func(b *Batch) { b.SetCounter("", 1) }, "empty counter name"},
		{"NUL in key", func(b *Batch) { b.AppendAccounting("job", "a\x00b", 1, nil) }, "contains a NUL byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Batch
			tc.build(&b)
			before := s.Stats()
			err := s.Commit(context.Background(), &b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Commit = %v, want error containing %q", err, tc.want)
			}
			if after := s.Stats(); after.Batches != before.Batches || after.Groups != before.Groups {
				t.Errorf("an invalid batch reached the writer: %+v -> %+v", before, after)
			}
		})
	}
	if err := s.Commit(context.Background(), nil); err == nil {
		t.Error("Commit(nil) succeeded")
	}
	if got := loadAll(t, s, "job"); len(got) != 0 {
		t.Errorf("invalid batches wrote %q", got)
	}
}

func TestOpen_LockedBySecondController(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	_, err := Open(dir, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open = %v, want ErrLocked", err)
	}
	if want := "(pid " + strconv.Itoa(os.Getpid()) + ")"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder %s", err, want)
	}
	// The refused Open must not have disturbed the holder.
	var b Batch
	b.Put("job", "1", []byte("x"))
	commitT(t, s, &b)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openT(t, dir, Options{})
	if got := loadAll(t, s2, "job"); string(got["1"]) != "x" {
		t.Errorf("after reopen jobs = %q", got)
	}
}

// rawExec runs statements on the state file behind the store's back, as an admin's sqlite3
// shell would.
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestOpen_SchemaVersion(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version string
		wantErr error
		wantMsg string
	}{
		{"current", strconv.Itoa(SchemaVersion), nil, ""},
		{"newer", "99", ErrSchemaTooNew, "schema version 99, this Orbit supports up to 1"},
		{"garbage", "abc", ErrNotStateFile, `schema version "abc" is not a number`},
		{"zero", "0", ErrNotStateFile, "invalid schema version 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			rawExec(t, filepath.Join(dir, FileName), `UPDATE meta SET value = '`+tc.version+`' WHERE key = 'schema_version'`)
			s, err = Open(dir, Options{})
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("Open = %v", err)
				}
				s.Close()
				return
			}
			if err == nil {
				s.Close()
				t.Fatalf("Open succeeded, want %v", tc.wantErr)
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("Open = %v, want %v containing %q", err, tc.wantErr, tc.wantMsg)
			}
			// A refused Open must release the lock, so a fixed file can be opened.
			rawExec(t, filepath.Join(dir, FileName), `UPDATE meta SET value = '1' WHERE key = 'schema_version'`)
			s, err = Open(dir, Options{})
			if err != nil {
				t.Fatalf("Open after repair = %v", err)
			}
			s.Close()
		})
	}
}

func TestOpen_ForeignDatabase(t *testing.T) {
	dir := t.TempDir()
	rawExec(t, filepath.Join(dir, FileName), `CREATE TABLE slurm_jobs (id INTEGER)`)
	_, err := Open(dir, Options{})
	if !errors.Is(err, ErrNotStateFile) {
		t.Fatalf("Open = %v, want ErrNotStateFile", err)
	}
}

func TestOpen_CorruptFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 8192)
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	for _, tc := range []struct {
		name    string
		content []byte
	}{
		{"random bytes", garbage},
		{"text file", []byte("this is not a database\n")},
		{"truncated header", []byte("SQLite format 3\x00\x10\x00")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir, Options{})
			if err == nil {
				s.Close()
				t.Fatal("Open of a corrupt file succeeded")
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, FileName)) {
				t.Errorf("error %q does not name the file", err)
			}
			t.Logf("Open: %v", err)
			// The lock must have been released.
			if _, err := lockDir(dir); err != nil {
				t.Errorf("lock still held after a failed Open: %v", err)
			}
		})
	}
}

// TestOpen_DamagedPages damages the pages of a real state file: whatever SQLite notices, at
// Open or at the first read, must be an error, never a panic or a hang.
func TestOpen_DamagedPages(t *testing.T) {
	for _, from := range []string{"page 2", "middle"} {
		t.Run(from, func(t *testing.T) { testDamagedPages(t, from == "middle") })
	}
}

func testDamagedPages(t *testing.T, fromMiddle bool) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	for i := range 2000 {
		b.Put("job", fmt.Sprintf("%06d", i), bytes.Repeat([]byte{'j'}, 200))
		b.AppendAccounting("job", fmt.Sprintf("%06d", i), int64(i), bytes.Repeat([]byte{'a'}, 100))
	}
	commitT(t, s, &b)
	s.Close()
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 64*1024 {
		t.Fatalf("state file only %d bytes; the checkpoint at Close did not happen?", len(data))
	}
	// Keep the first page (header and schema), scribble over everything after it, or over
	// the second half of the file.
	start := 4096
	if fromMiddle {
		start = len(data) / 2 / 4096 * 4096
	}
	for i := start; i < len(data); i++ {
		data[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Logf("Open: %v", err)
		return
	}
	defer s.Close()
	lerr := s.Load("job", func(string, []byte) error { return nil })
	aerr := s.Accounting(0, 1<<62, func(AccountingRecord) error { return nil })
	if lerr == nil && aerr == nil {
		t.Fatal("a damaged state file was read without error")
	}
	t.Logf("Load: %v; Accounting: %v", lerr, aerr)
}

func TestStore_ClosedRefuses(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	var b Batch
	b.Put("job", "1", nil)
	if err := s.Commit(context.Background(), &b); !errors.Is(err, ErrClosed) {
		t.Errorf("Commit after Close = %v, want ErrClosed", err)
	}
	if _, err := s.Counter("x"); !errors.Is(err, ErrClosed) {
		t.Errorf("Counter after Close = %v, want ErrClosed", err)
	}
}

// TestPackage_Imports keeps the store below every other Orbit package: it may import none.
func TestPackage_Imports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/orbit-hpc/orbit") {
				t.Errorf("%s imports %s; the store must not import other Orbit packages", f, p)
			}
		}
	}
}

// waitDone bounds a wait that should end quickly.
func waitDone(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
