package options

import (
	"strings"
	"testing"
	"time"
)

// TestPropagate: --propagate alone means ALL, "--propagate=" an empty list (nothing
// propagated), a list is kept as given (the command checks it, as Slurm's
// _set_rlimit_env does), #SBATCH carries it, and salloc does not know it in 22.05.
func TestPropagate(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		argv   []string
		script string
		want   string
		set    bool
	}{
		{[]string{"sbatch", "--wrap", "true"}, "", "", false},
		{[]string{"sbatch", "--propagate", "--wrap", "true"}, "", "ALL", true},
		{[]string{"sbatch", "--propagate=", "--wrap", "true"}, "", "", true},
		{[]string{"sbatch", "--propagate=CORE,BOGUS", "--wrap", "true"}, "", "CORE,BOGUS", true},
		{[]string{"sbatch", "s.sh"}, "#!/bin/sh\n#SBATCH --propagate=STACK\ntrue\n", "STACK", true},
	} {
		in := SbatchInput{Argv: tc.argv, Cwd: "/tmp", Now: now}
		if tc.script != "" {
			script := []byte(tc.script)
			in.Script = func(string) ([]byte, error) { return script, nil }
		}
		js, err := in.Parse()
		if err != nil {
			t.Fatalf("%q: %v", tc.argv, err)
		}
		if js.Propagate != tc.want || js.PropagateSet != tc.set {
			t.Errorf("%q: Propagate %q set %v, want %q %v", tc.argv, js.Propagate, js.PropagateSet, tc.want, tc.set)
		}
	}
	js, err := ParseSrun([]string{"srun", "--propagate=NOFILE", "true"}, nil, "/w", now)
	if err != nil || js.Propagate != "NOFILE" || !js.PropagateSet {
		t.Errorf("srun --propagate=NOFILE: %v %+v", err, js)
	}
	_, err = ParseSalloc([]string{"salloc", "--propagate=CORE"}, nil, "/w", now)
	if err == nil || !strings.Contains(err.Error()+stderrOf(err), "unrecognized option '--propagate=CORE'") {
		t.Errorf("salloc --propagate: %v", err)
	}
}

func stderrOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Stderr
	}
	return ""
}
