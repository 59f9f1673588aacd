package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

func job(st states.JobState, ws uint32) wire.JobInfo {
	return wire.JobInfo{JobID: 7, State: uint32(st), ExitCode: ws}
}

func TestWaitJob(t *testing.T) {
	cases := []struct {
		name      string
		minJobAge time.Duration
		answers   [][]wire.JobInfo // one per look; nil = a transient error
		want      int
		pauses    []time.Duration
		stderr    string
	}{
		{"exit status of the job", 300 * time.Second,
			[][]wire.JobInfo{{job(states.JobPending, 0)}, {job(states.JobRunning, 0)}, {job(states.JobRunning, 0)}, {job(states.JobFailed, 3<<8)}},
			3, []time.Duration{2 * time.Second, 8 * time.Second, 32 * time.Second, 32 * time.Second}, ""},
		// A short MinJobAge keeps the pauses short, so a finished job is seen before it goes.
		{"short MinJobAge", 2 * time.Second,
			[][]wire.JobInfo{{job(states.JobRunning, 0)}, {job(states.JobComplete, 0)}},
			0, []time.Duration{2 * time.Second, 2 * time.Second}, ""},
		// An array: the highest exit status; a signal counts as 1.
		{"array", 300 * time.Second,
			[][]wire.JobInfo{{job(states.JobComplete, 0), job(states.JobRunning, 0)}, {job(states.JobComplete, 0), job(states.JobCancelled, 9), job(states.JobComplete, 0)}},
			1, []time.Duration{2 * time.Second, 8 * time.Second}, ""},
		{"transient error", 300 * time.Second,
			[][]wire.JobInfo{nil, {job(states.JobTimeout, 0)}},
			0, []time.Duration{2 * time.Second, 8 * time.Second},
			"sbatch: error: Currently unable to load job state information, retrying: Socket timed out on send/recv operation\n"},
	}
	for _, c := range cases {
		var pauses []time.Duration
		n := 0
		load := func(id uint32) ([]wire.JobInfo, error) {
			a := c.answers[n]
			n++
			if a == nil {
				return nil, errors.New("Socket timed out on send/recv operation")
			}
			return a, nil
		}
		var stderr strings.Builder
		got := waitJob(load, 7, c.minJobAge, func(d time.Duration) { pauses = append(pauses, d) }, &stderr)
		if got != c.want || !slices.Equal(pauses, c.pauses) || stderr.String() != c.stderr {
			t.Errorf("%s: exit %d, pauses %v, stderr %q; want %d, %v, %q", c.name, got, pauses, stderr.String(), c.want, c.pauses, c.stderr)
		}
	}
}

func TestWaitJob_Gone(t *testing.T) {
	load := func(uint32) ([]wire.JobInfo, error) {
		return nil, wire.Errorf(cmdclient.ErrnoInvalidJobID, "Invalid job id specified")
	}
	var stderr strings.Builder
	if got := waitJob(load, 42, time.Minute, func(time.Duration) {}, &stderr); got != 0 ||
		stderr.String() != "sbatch: error: Job 42 no longer found and exit code not found\n" {
		t.Errorf("exit %d, stderr %q", got, stderr.String())
	}
}
