package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// crashHelperEnv names the state directory when this test binary runs as the crash test's
// child (the GO_WANT_HELPER_PROCESS pattern).
const crashHelperEnv = "ORBIT_STORE_CRASH_HELPER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashHelperEnv); dir != "" {
		os.Exit(crashHelper(dir))
	}
	os.Exit(m.Run())
}

// crashHelper plays a controller under load: 16 submitters take job ids under one lock,
// enqueue a batch (record, next-id counter, accounting row) under it and wait outside it,
// and print "ack <id>" the moment Commit says the job is durable. It runs until killed; the
// deadline only keeps an orphan from running forever if the parent test dies.
func crashHelper(dir string) int {
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	next, err := s.Counter("next_job_id")
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	next = max(next, 1)
	var mu, outMu sync.Mutex
	deadline := time.Now().Add(2 * time.Minute)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				mu.Lock()
				id := next
				next++
				p, err := s.Enqueue(context.Background(), crashBatch(id))
				mu.Unlock()
				if err == nil {
					err = p.Wait(context.Background())
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "helper: commit:", err)
					os.Exit(3)
				}
				// One write(2) per line straight to the pipe: no buffer to lose at SIGKILL.
				outMu.Lock()
				os.Stdout.WriteString("ack " + strconv.FormatInt(id, 10) + "\n")
				outMu.Unlock()
			}
		})
	}
	wg.Wait()
	s.Close()
	return 0
}

func crashKey(id int64) string { return fmt.Sprintf("%010d", id) }

func crashBatch(id int64) *Batch {
	var b Batch
	key := crashKey(id)
	b.Put("job", key, []byte("payload of job "+key))
	b.SetCounter("next_job_id", id+1)
	b.AppendAccounting("job", key, id, []byte("finished "+key))
	return &b
}

// TestCrash_AcknowledgedBatchesSurviveKill kills a committing child with SIGKILL after a
// random number of acknowledgements, reopens the state, and checks that every acknowledged
// job is there exactly once, that nothing beyond the counter exists, and that what exists
// is a gap-free prefix (FIFO plus atomic batches). Each round resumes from the last one's
// state.
func TestCrash_AcknowledgedBatchesSurviveKill(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test re-executes the test binary")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	acked := map[int64]bool{}
	for round := 1; round <= 4; round++ {
		killAfter := 1 + rng.IntN(3000)
		n := crashRound(t, dir, killAfter, acked)
		t.Logf("round %d: killed after %d acks, %d lines read in all", round, killAfter, n)
		verifyAfterCrash(t, dir, acked)
		if t.Failed() {
			return
		}
	}
}

// crashRound runs one child, records what it acknowledged into acked, and returns how many
// acknowledgements were read.
func crashRound(t *testing.T, dir string, killAfter int, acked map[int64]bool) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	timeout := time.After(90 * time.Second)
	n, killed := 0, false
	for done := false; !done; {
		select {
		case line, ok := <-lines:
			if !ok {
				done = true
				break
			}
			id, err := strconv.ParseInt(strings.TrimPrefix(line, "ack "), 10, 64)
			if err != nil || !strings.HasPrefix(line, "ack ") {
				t.Errorf("child printed %q", line)
				continue
			}
			if acked[id] {
				t.Errorf("job %d acknowledged twice", id)
			}
			acked[id] = true
			n++
			if n == killAfter && !killed {
				cmd.Process.Kill() // SIGKILL
				killed = true
			}
		case <-timeout:
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child gave %d of %d acknowledgements in 90s; stderr: %s", n, killAfter, stderr.String())
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child exited before the kill (%v) after %d acks; stderr: %s", err, n, stderr.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, not by SIGKILL; stderr: %s", err, stderr.String())
	}
	return n
}

func verifyAfterCrash(t *testing.T, dir string, acked map[int64]bool) {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	next, err := s.Counter("next_job_id")
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[int64]bool{}
	err = s.Load("job", func(key string, value []byte) error {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return fmt.Errorf("bad key %q", key)
		}
		if want := "payload of job " + key; string(value) != want {
			return fmt.Errorf("job %s holds %q, want %q", key, value, want)
		}
		jobs[id] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	accounted := map[int64]int{}
	err = s.Accounting(0, 1<<62, func(r AccountingRecord) error {
		if r.Key != crashKey(r.Time) || string(r.Value) != "finished "+r.Key {
			return fmt.Errorf("accounting row %+v does not match its job", r)
		}
		accounted[r.Time]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id := range acked {
		if !jobs[id] {
			t.Errorf("acknowledged job %d lost", id)
		}
	}
	// Committed = exactly the ids below the counter, each with exactly one accounting row.
	if int64(len(jobs)) != next-1 {
		t.Errorf("%d jobs stored, next_job_id = %d", len(jobs), next)
	}
	for id := int64(1); id < next; id++ {
		if !jobs[id] {
			t.Errorf("job %d missing below next_job_id %d: commits are not a prefix", id, next)
		}
		if accounted[id] != 1 {
			t.Errorf("job %d has %d accounting rows, want exactly 1", id, accounted[id])
		}
	}
	if len(accounted) != len(jobs) {
		t.Errorf("%d accounting rows for %d jobs", len(accounted), len(jobs))
	}
	t.Logf("after kill: %d jobs durable, %d acknowledged in all, next_job_id %d", len(jobs), len(acked), next)
}
