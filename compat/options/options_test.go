package options

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const okScript = "#!/bin/sh\ntrue\n"

func TestGetopt_Errors(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"sbatch", "--cpus=2", "x"}, "sbatch: option '--cpus=2' is ambiguous; possibilities: '--cpus-per-gpu' '--cpus-per-task'\n"},
		{[]string{"./sbatch", "--foo=bar"}, "./sbatch: unrecognized option '--foo=bar'\n"},
		{[]string{"sbatch", "-Hz"}, "sbatch: invalid option -- 'z'\n"},
		{[]string{"sbatch", "--ho=3"}, "sbatch: option '--hold' doesn't allow an argument\n"},
		{[]string{"sbatch", "--out"}, "sbatch: option '--output' requires an argument\n"},
		{[]string{"sbatch", "-t"}, "sbatch: option requires an argument -- 't'\n"},
	}
	for _, tt := range tests {
		_, err := ParseSbatch(tt.argv, nil, []byte(okScript), now)
		var e *Error
		if !errors.As(err, &e) || e.ExitCode != 255 || e.Stderr != tt.want+"Try \"sbatch --help\" for more information\n" {
			t.Errorf("%q: got %#v", tt.argv, err)
		}
	}
}

func TestParseSbatch_Forms(t *testing.T) {
	js, err := ParseSbatch([]string{"sbatch", "-N2-4", "-t", "10", "-o=x", "--nice", "s.sh", "-N", "9"}, nil, []byte(okScript), now)
	if err != nil {
		t.Fatal(err)
	}
	if js.MinNodes != 2 || js.MaxNodes != 4 || js.TimeLimit != 10 || !strings.HasSuffix(js.Output, "/=x") || js.Nice != 100 {
		t.Errorf("got %+v", js)
	}
	if strings.Join(js.Argv, " ") != "s.sh -N 9" {
		t.Errorf("script args %q", js.Argv)
	}
}

func TestParseSbatch_Unsupported(t *testing.T) {
	_, err := ParseSbatch([]string{"sbatch", "--ntasks-per-tres=2", "s.sh"}, nil, []byte(okScript), now)
	if err == nil || err.Error() != "sbatch: error: --ntasks-per-tres is not supported by Orbit yet" {
		t.Errorf("got %v", err)
	}
	_, err = ParseSrun([]string{"srun", "true"}, []string{"SLURM_NTASKS_PER_TRES=2"}, "/tmp", now)
	if err == nil || !strings.Contains(err.Error(), "SLURM_NTASKS_PER_TRES (--ntasks-per-tres) is not supported by Orbit yet") {
		t.Errorf("got %v", err)
	}
}

func TestParseSbatch_Extensions(t *testing.T) {
	js, err := ParseSbatch([]string{"sbatch", "--min-nodes-invasive=2", "--max-nodes-invasive=8", "--node-constraints=pof2", "--min-power=100", "--max-power=200", "s.sh"}, nil, []byte(okScript), now)
	if err != nil {
		t.Fatal(err)
	}
	if js.MinNodesInvasive != 2 || js.MaxNodesInvasive != 8 || js.NodeConstraints != "pof2" || js.MinPower != 100 || js.MaxPower != 200 {
		t.Errorf("got %+v", js)
	}
	// An extension never makes a Slurm prefix ambiguous: --min is still --mincpus.
	if js, err := ParseSbatch([]string{"sbatch", "--min=2", "s.sh"}, nil, []byte(okScript), now); err != nil || js.MinCPUs != 2 {
		t.Errorf("--min: %v, want --mincpus=2", err)
	}
}

func TestParseSrun(t *testing.T) {
	js, err := ParseSrun([]string{"srun", "-n4", "--time=5", "hostname", "-s"}, []string{"SLURM_JOB_ID=12"}, "/w", now)
	if err != nil {
		t.Fatal(err)
	}
	if js.NTasks != 4 || js.TimeLimit != 5 || js.JobID != "12" || strings.Join(js.Argv, " ") != "hostname -s" || js.Name != "hostname" {
		t.Errorf("got %+v", js)
	}
	_, err = ParseSrun([]string{"srun", "--cpu", "x"}, nil, "/w", now)
	if err == nil || !strings.Contains(err.Error(), "'--cpu-bind' '--cpu-freq' '--cpus-per-gpu' '--cpus-per-task'") {
		t.Errorf("got %v", err)
	}
}

func FuzzParseSbatchArgs(f *testing.F) {
	for _, s := range []string{"-N2 -t 10 s.sh", "--out=x --cpus=2", "-o=x -- s.sh a b", "--nice --exclusive=user x", "--array=1-5%2 --dependency=afterok:1?afterany:2 x", "--begin=now+1hour --deadline=tomorrow x", "-Hvvz", "--signal=B:USR1@30 --mem=1G --mem-per-cpu=1 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := append([]string{"sbatch"}, strings.Split(s, " ")...)
		_, _ = ParseSbatch(argv, []string{"SBATCH_TIMELIMIT=5"}, []byte(okScript), now)
		_, _ = ParseSrun(argv, nil, "/w", now)
	})
}

func FuzzSbatchDirectives(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\n#SBATCH -N 2 --time=1:00 # c\ntrue\n",
		"#!/bin/sh\n#SBATCH --job-name=\"a b\" -o 'x y'\n#SBATCH \\ x\n",
		"#!/bin/sh\n#SBATCH \"\nx\n", "#!/bin/sh\n#SBATCH : x\n", "#!/bin/sh\n#SLURM -n 2\n#SBATCH hetjob\n",
		"#!/bin/sh\r\n", "x", "", "#!/bin/sh\n#PBS -l nodes=2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		js, err := ParseSbatch([]string{"sbatch", "s.sh"}, nil, script, now)
		if err == nil && js == nil {
			t.Fatal("nil spec without error")
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.ExitCode == 0 || !strings.HasSuffix(e.Stderr, "\n")) {
			t.Fatalf("bad error %#v", err)
		}
	})
}

// TestParseSbatch_GetUserEnv checks --get-user-env's optional "<timeout>[S|L]" against what
// the reference accepts (sbatch exits 255 with "Invalid --get-user-env specification"
// otherwise) and the #SBATCH and SBATCH_GET_USER_ENV forms.
func TestParseSbatch_GetUserEnv(t *testing.T) {
	for _, v := range []string{"", "=10L", "=S", "=12", "= 5", "=0l"} {
		js, err := ParseSbatch([]string{"sbatch", "--get-user-env" + v, "s.sh"}, nil, []byte(okScript), now)
		if err != nil || !js.GetUserEnv {
			t.Errorf("--get-user-env%s: %v, GetUserEnv=%v", v, err, js != nil && js.GetUserEnv)
		}
	}
	for _, v := range []string{"=5x", "=x5"} {
		_, err := ParseSbatch([]string{"sbatch", "--get-user-env" + v, "s.sh"}, nil, []byte(okScript), now)
		var e *Error
		if !errors.As(err, &e) || e.ExitCode != 255 || e.Stderr != "sbatch: error: Invalid --get-user-env specification\n" {
			t.Errorf("--get-user-env%s: got %#v", v, err)
		}
	}
	js, err := ParseSbatch([]string{"sbatch", "s.sh"}, nil, []byte("#!/bin/sh\n#SBATCH --get-user-env\ntrue\n"), now)
	if err != nil || !js.GetUserEnv {
		t.Errorf("#SBATCH --get-user-env: %v", err)
	}
	js, err = ParseSbatch([]string{"sbatch", "s.sh"}, []string{"SBATCH_GET_USER_ENV=1"}, []byte(okScript), now)
	if err != nil || !js.GetUserEnv {
		t.Errorf("SBATCH_GET_USER_ENV: %v", err)
	}
	if js, _ := ParseSbatch([]string{"sbatch", "s.sh"}, nil, []byte(okScript), now); js.GetUserEnv {
		t.Error("GetUserEnv set without the option")
	}
}
