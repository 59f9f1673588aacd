package options

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// TestContextAndInteractive: --context (all three commands) and srun's --interactive are
// accepted and listed by -v, as a Slurm built without SELinux does (the reference ran the
// job and printed "context : foo", "interactive : set").
func TestContextAndInteractive(t *testing.T) {
	js, err := ParseSbatch([]string{"sbatch", "-v", "--context=foo", "s.sh"}, nil, []byte(okScript), now)
	if err != nil || !strings.Contains(DefinedOptions(js), "sbatch: context             : foo\n") {
		t.Errorf("sbatch --context=foo: %v\n%s", err, DefinedOptions(js))
	}
	js, err = ParseSrun([]string{"srun", "-v", "--context=foo", "--interactive", "true"}, nil, "/tmp", now)
	if err != nil {
		t.Fatal(err)
	}
	if d := DefinedOptions(js); !strings.Contains(d, "srun: context             : foo\nsrun: interactive         : set\n") {
		t.Errorf("srun -v --context=foo --interactive:\n%s", d)
	}
	if js, err := ParseSalloc([]string{"salloc", "--context=foo", "true"}, nil, "/tmp", now); err != nil || js.Action != jobspec.ActionSubmit {
		t.Errorf("salloc --context=foo: %v", err)
	}
}
