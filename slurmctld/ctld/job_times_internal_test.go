package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestExpectedEnd: a pending job with an expected start (its begin time) ends a time limit
// later, as scontrol shows it; without a start or with no limit the end is unknown (0); a
// job that ran keeps its recorded end.
func TestExpectedEnd(t *testing.T) {
	pending, running := uint32(states.JobPending), uint32(states.JobRunning)
	for _, tc := range []struct {
		name  string
		j     jobRecord
		start int64
		want  int64
	}{
		{"begin", jobRecord{State: pending, TimeLimit: 5}, 1000, 1300},
		{"held with begin", jobRecord{State: pending, TimeLimit: 5, Priority: 0}, 1000, 1300},
		{"no start", jobRecord{State: pending, TimeLimit: 5}, 0, 0},
		{"unlimited", jobRecord{State: pending, TimeLimit: wire.Infinite}, 1000, 0},
		{"running", jobRecord{State: running, TimeLimit: 5, EndTime: 4242}, 1000, 4242},
	} {
		if got := expectedEnd(&tc.j, tc.start); got != tc.want {
			t.Errorf("%s: expectedEnd = %d, want %d", tc.name, got, tc.want)
		}
	}
}
