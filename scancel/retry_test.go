package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// fakeCanceller answers kill requests with errnos in turn (0 = success) and records the
// pauses between attempts.
func fakeCanceller(verbose int, answers ...int32) (*canceller, *[]time.Duration, *int, *bytes.Buffer) {
	var slept []time.Duration
	calls := 0
	var stderr bytes.Buffer
	k := &canceller{p: &params{verbose: verbose, signal: noSignal}, stderr: &stderr}
	k.kill = func(*wire.KillJobRequest) *cmdclient.Error {
		a := answers[min(calls, len(answers)-1)]
		calls++
		if a == 0 {
			return nil
		}
		return cmdclient.NewError(a)
	}
	k.sleep = func(d time.Duration) { slept = append(slept, d) }
	return k, &slept, &calls, &stderr
}

// TestKillRetrying: a transitional state is retried after 5 s, 6 s, ... up to 10 attempts,
// with a verbose note each time; a pending job is retried for a step only; other answers
// end the loop at once.
func TestKillRetrying(t *testing.T) {
	k, slept, calls, stderr := fakeCanceller(1, errnoTransitionState, errnoTransitionState, 0)
	if e := k.killRetrying(&wire.KillJobRequest{JobID: 5}); e != nil || *calls != 3 {
		t.Errorf("two transitional answers then success: %v after %d calls", e, *calls)
	}
	if want := []time.Duration{5 * time.Second, 6 * time.Second}; len(*slept) != 2 || (*slept)[0] != want[0] || (*slept)[1] != want[1] {
		t.Errorf("slept %v, want %v", *slept, want)
	}
	if got := stderr.String(); got != "scancel: Job is in transitional state, retrying\nscancel: Job is in transitional state, retrying\n" {
		t.Errorf("verbose notes %q", got)
	}

	k, slept, calls, _ = fakeCanceller(0, errnoTransitionState)
	if e := k.killRetrying(&wire.KillJobRequest{JobID: 5}); e == nil || e.Errno != errnoTransitionState || *calls != maxCancelRetry || len(*slept) != maxCancelRetry {
		t.Errorf("always transitional: %v after %d calls, %d pauses", e, *calls, len(*slept))
	}

	k, _, calls, _ = fakeCanceller(0, errnoJobPending, 0)
	if e := k.killRetrying(&wire.KillJobRequest{JobID: 5}); e == nil || *calls != 1 {
		t.Errorf("job pending for a job: %v after %d calls, want no retry", e, *calls)
	}
	k, _, calls, _ = fakeCanceller(0, errnoJobPending, 0)
	if e := k.killRetrying(&wire.KillJobRequest{JobID: 5, Step: true}); e != nil || *calls != 2 {
		t.Errorf("job pending for a step: %v after %d calls, want one retry", e, *calls)
	}
	k, _, calls, _ = fakeCanceller(0, cmdclient.ErrnoInvalidJobID)
	if e := k.killRetrying(&wire.KillJobRequest{JobID: 5}); e == nil || *calls != 1 {
		t.Errorf("invalid job: %v after %d calls, want no retry", e, *calls)
	}
}
