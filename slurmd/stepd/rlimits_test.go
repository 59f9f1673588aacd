package stepd

import (
	"reflect"
	"testing"

	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/slurmd/taskexec"
)

// TestTaskRlimits: slurm.conf-propagated limits are lowered to the hard limit quietly; a
// user's (--propagate) carries Slurm's error line, naming the node's slurmstepd and
// 'unlimited' in quotes.
func TestTaskRlimits(t *testing.T) {
	s := &StepSpec{NodeName: "n1", Rlimits: []rlimits.Request{
		{Name: "CORE", Resource: 4, Value: 0},
		{Name: "NOFILE", Resource: 7, Value: 1500000, User: true},
		{Name: "STACK", Resource: 3, Value: ^uint64(0), User: true},
	}}
	want := []taskexec.Rlimit{
		{Resource: 4, Cur: 0, Clamp: true},
		{Resource: 7, Cur: 1500000, FailMsg: "slurmstepd-n1: error: Can't propagate RLIMIT_NOFILE of 1500000 from submit host: "},
		{Resource: 3, Cur: ^uint64(0), FailMsg: "slurmstepd-n1: error: Can't propagate RLIMIT_STACK of 'unlimited' from submit host: "},
	}
	if got := s.taskRlimits(); !reflect.DeepEqual(got, want) {
		t.Fatalf("taskRlimits =\n%+v\nwant\n%+v", got, want)
	}
	if (&StepSpec{}).taskRlimits() != nil {
		t.Fatal("no limits: want nil")
	}
}
