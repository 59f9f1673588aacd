package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// holdWriteLock takes SQLite's write lock from another connection, as an admin's sqlite3
// shell could, so that the store's writer blocks in BEGIN IMMEDIATE (for up to its busy
// timeout) while the test queues batches behind it. The returned func releases the lock.
func holdWriteLock(t *testing.T, s *Store) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite3", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			conn.ExecContext(context.Background(), `ROLLBACK`)
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// blockedOpts gives the writer a busy timeout far longer than any test needs to queue its
// batches behind holdWriteLock.
var blockedOpts = Options{BusyTimeout: 2 * time.Minute}

func jobBatch(id int) *Batch {
	var b Batch
	key := fmt.Sprintf("%08d", id)
	b.Put("job", key, []byte("job "+key))
	b.SetCounter("next_job_id", int64(id+1))
	b.AppendAccounting("job", key, int64(id), nil)
	return &b
}

func TestCommit_GroupsConcurrentBatches(t *testing.T) {
	s := openT(t, t.TempDir(), blockedOpts)
	const n = 200
	release := holdWriteLock(t, s)
	pending := make([]*Pending, n)
	for i := range pending {
		p, err := s.Enqueue(context.Background(), jobBatch(i+1))
		if err != nil {
			t.Fatal(err)
		}
		pending[i] = p
	}
	// The writer holds at most the first few batches in its blocked transaction; everything
	// queued behind must go out together in the next one.
	release()
	for i, p := range pending {
		if err := p.Wait(context.Background()); err != nil {
			t.Fatalf("batch %d: %v", i+1, err)
		}
	}
	st := s.Stats()
	t.Logf("stats: %+v", st)
	if st.Batches != n || st.FailedBatches != 0 {
		t.Errorf("Batches = %d, FailedBatches = %d; want %d, 0", st.Batches, st.FailedBatches, n)
	}
	if st.Groups > 2 || st.MaxGroupSize < n/2 {
		t.Errorf("%d batches queued behind a busy writer took %d transactions (largest %d); want at most 2",
			n, st.Groups, st.MaxGroupSize)
	}
	var inBuckets uint64
	for _, b := range st.GroupSizes {
		inBuckets += b.Count
	}
	if inBuckets != st.Groups {
		t.Errorf("histogram holds %d groups, Groups = %d", inBuckets, st.Groups)
	}
	if got := loadAll(t, s, "job"); len(got) != n {
		t.Errorf("%d jobs stored, want %d", len(got), n)
	}
	if c, err := s.Counter("next_job_id"); err != nil || c != n+1 {
		t.Errorf("next_job_id = %d, %v; want %d", c, err, n+1)
	}
}

func TestCommit_MaxGroupBatches(t *testing.T) {
	s := openT(t, t.TempDir(), Options{BusyTimeout: blockedOpts.BusyTimeout, MaxGroupBatches: 10})
	release := holdWriteLock(t, s)
	var pending []*Pending
	for i := range 95 {
		p, err := s.Enqueue(context.Background(), jobBatch(i+1))
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, p)
	}
	release()
	for _, p := range pending {
		if err := p.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	st := s.Stats()
	if st.MaxGroupSize != 10 || st.Groups < 10 || st.Batches != 95 {
		t.Errorf("stats %+v: want groups of at most 10 carrying 95 batches", st)
	}
}

func TestGroupBucket(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {9, 4}, {1024, 10}, {1025, 11}, {1 << 20, 11},
	} {
		if got := groupBucket(tc.n); got != tc.want {
			t.Errorf("groupBucket(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	st := (&Store{queue: make(chan *Pending)}).Stats()
	prev := 0
	for i, b := range st.GroupSizes {
		if b.Min != prev+1 || (b.Max != 0 && b.Max < b.Min) || (b.Max == 0 && i != len(st.GroupSizes)-1) {
			t.Errorf("bucket %d = %+v after max %d", i, b, prev)
		}
		prev = b.Max
	}
}

func TestCommit_FIFOUnderConcurrency(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	const workers, perWorker = 16, 60
	var (
		mu   sync.Mutex
		next = 1
		wg   sync.WaitGroup
		errs = make(chan error, workers)
	)
	// As the controller will: take the id and enqueue under one lock, wait outside it.
	for range workers {
		wg.Go(func() {
			for range perWorker {
				mu.Lock()
				id := next
				next++
				p, err := s.Enqueue(context.Background(), jobBatch(id))
				mu.Unlock()
				if err == nil {
					err = p.Wait(context.Background())
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// accounting ids are assigned in commit order: they must follow the enqueue order.
	want := int64(1)
	err := s.Accounting(0, 1<<62, func(r AccountingRecord) error {
		if r.Time != want {
			return fmt.Errorf("accounting row %d holds job %d, want %d: commit order differs from enqueue order", r.ID, r.Time, want)
		}
		want++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want != workers*perWorker+1 {
		t.Errorf("%d accounting rows, want %d", want-1, workers*perWorker)
	}
	if c, _ := s.Counter("next_job_id"); c != workers*perWorker+1 {
		t.Errorf("next_job_id = %d, want %d (the last enqueued batch must commit last)", c, workers*perWorker+1)
	}
	t.Logf("stats: %+v", s.Stats())
}

// TestCommit_FailingBatchDoesNotFailGroup makes SQLite itself refuse some batches (a value
// over the connection's length limit) inside groups shared with good batches.
func TestCommit_FailingBatchDoesNotFailGroup(t *testing.T) {
	s := openT(t, t.TempDir(), blockedOpts)
	const limit = 1000
	err := s.wconn.Raw(func(dc any) error {
		dc.(*sqlite3.SQLiteConn).SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, limit)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// bad batches are first, in the middle and last; each writes a good mutation before the
	// one that fails, which must be rolled back with it.
	plan := []bool{false, true, true, false, true, true, true, false} // true: a good batch
	release := holdWriteLock(t, s)
	var pending []*Pending
	for i, good := range plan {
		var b Batch
		key := fmt.Sprintf("%d", i)
		b.Put("job", key, []byte("ok"))
		b.SetCounter("c"+key, int64(i))
		if !good {
			b.Put("job", key+"-big", make([]byte, limit+1))
		}
		p, err := s.Enqueue(context.Background(), &b)
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, p)
	}
	release()
	for i, p := range pending {
		err := p.Wait(context.Background())
		good := plan[i]
		switch {
		case good && err != nil:
			t.Errorf("good batch %d failed: %v", i, err)
		case !good && (err == nil || !strings.Contains(err.Error(), "too big")):
			t.Errorf("bad batch %d: err = %v, want SQLite's 'too big'", i, err)
		}
	}
	st := s.Stats()
	if st.Batches != 5 || st.FailedBatches != 3 || st.Groups > 2 {
		t.Errorf("stats %+v: want 5 committed and 3 failed batches in at most 2 groups", st)
	}
	jobs := loadAll(t, s, "job")
	for i, good := range plan {
		key := fmt.Sprintf("%d", i)
		_, stored := jobs[key]
		c, _ := s.Counter("c" + key)
		if stored != good || (good && c != int64(i)) || (!good && c != 0) {
			t.Errorf("batch %d (good=%v): record stored=%v, counter=%d", i, good, stored, c)
		}
	}
	if len(jobs) != 5 {
		t.Errorf("jobs = %v", jobs)
	}
}

func TestCommit_ContextCanceled(t *testing.T) {
	s := openT(t, t.TempDir(), blockedOpts)

	t.Run("before queueing", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var b Batch
		b.Put("job", "never", nil)
		err := s.Commit(ctx, &b)
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrOutcomeUnknown) {
			t.Fatalf("Commit = %v, want plain context.Canceled", err)
		}
	})

	t.Run("while waiting", func(t *testing.T) {
		release := holdWriteLock(t, s)
		var b Batch
		b.Put("job", "maybe", []byte("x"))
		p, err := s.Enqueue(context.Background(), &b)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err = p.Wait(ctx)
		if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait = %v, want ErrOutcomeUnknown wrapping context.Canceled", err)
		}
		// The writer does not drop an abandoned batch: once the lock goes, it commits.
		release()
		waitDone(t, p.Done(), "the abandoned batch")
		if err := p.Wait(context.Background()); err != nil {
			t.Fatalf("abandoned batch: %v", err)
		}
	})

	jobs := loadAll(t, s, "job")
	if _, ok := jobs["never"]; ok {
		t.Error("a batch refused before queueing was written")
	}
	if string(jobs["maybe"]) != "x" {
		t.Errorf("abandoned batch not written: %q", jobs)
	}
}

func TestClose_DrainsQueuedBatches(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, blockedOpts)
	if err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, s)
	var pending []*Pending
	for i := range 50 {
		p, err := s.Enqueue(context.Background(), jobBatch(i+1))
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, p)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	release()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close did not return")
	}
	for i, p := range pending {
		select {
		case <-p.Done():
		default:
			t.Fatalf("batch %d still pending after Close", i+1)
		}
		if err := p.Wait(context.Background()); err != nil {
			t.Errorf("batch %d: %v", i+1, err)
		}
	}
	s = openT(t, dir, Options{})
	if got := loadAll(t, s, "job"); len(got) != 50 {
		t.Errorf("%d jobs after Close and reopen, want 50", len(got))
	}
}
