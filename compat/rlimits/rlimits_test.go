package rlimits

import (
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in        string
		propagate bool
		want      []string
		err       string
	}{
		{"ALL", true, Limits2Names(All), ""},
		{"NONE", true, nil, ""},
		{"ALL", false, nil, ""},
		{"NONE", false, Limits2Names(All), ""},
		{"STACK", true, []string{"STACK"}, ""},
		{"CORE,STACK", true, []string{"STACK", "CORE"}, ""},
		{"RLIMIT_CORE STACK\tNOFILE\nAS", true, []string{"STACK", "CORE", "NOFILE", "AS"}, ""},
		{"CORE", false, []string{"CPU", "FSIZE", "DATA", "STACK", "RSS", "NPROC", "NOFILE", "MEMLOCK", "AS"}, ""},
		{"", true, nil, ""},
		{",,", true, nil, ""},
		{"all", true, nil, "Bad rlimit name: all"},
		{"NONE,CORE", true, nil, "Bad rlimit name: NONE"},
		{"CORE,FOO", true, nil, "Bad rlimit name: FOO"},
		{"RLIMIT_FOO", true, nil, "Bad rlimit name: FOO"},
		// Slurm strips the prefix at every table entry it compares with.
		{"RLIMIT_RLIMIT_AS", true, []string{"AS"}, ""},
		{"RLIMIT_RLIMIT_CPU", true, nil, "Bad rlimit name: "},
	} {
		got, err := Parse(c.in, c.propagate)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) || !errors.Is(err, ErrBadName) {
				t.Errorf("Parse(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.Names(), c.want) {
			t.Errorf("Parse(%q, %v) = %v, %v; want %v", c.in, c.propagate, got.Names(), err, c.want)
		}
	}
}

func Limits2Names(s Set) []string { return s.Names() }

func TestFromConf(t *testing.T) {
	s, err := FromConf("", "", false)
	if err != nil || s != All {
		t.Fatalf("default = %v, %v; want ALL", s.Names(), err)
	}
	s, err = FromConf("ALL", "CORE,MEMLOCK", true)
	if err != nil || s.Has(4) || s.Has(8) || !s.Has(7) {
		t.Fatalf("Except=CORE,MEMLOCK = %v, %v", s.Names(), err)
	}
	_, err = FromConf("CORE,BOGUS", "", false)
	var ce *ConfError
	if !errors.As(err, &ce) || err.Error() != "Bad PropagateResourceLimits: CORE,BOGUS" || errors.Unwrap(err).Error() != "Bad rlimit name: BOGUS" {
		t.Fatalf("bad value: %v", err)
	}
	_, err = FromConf("", "X", true)
	if err == nil || err.Error() != "Bad PropagateResourceLimitsExcept: X" {
		t.Fatalf("bad except: %v", err)
	}
}

func TestEnv(t *testing.T) {
	get := func(res int) (uint64, uint64, error) {
		if res == 4 {
			return 0, ^uint64(0), nil
		}
		if res == 9 {
			return 0, 0, errors.New("nope")
		}
		return ^uint64(0), ^uint64(0), nil
	}
	s, _ := Parse("CORE,STACK,AS", true)
	env, errs := Env(s, true, get)
	want := []string{"SLURM_RLIMIT_STACK=U18446744073709551615", "SLURM_RLIMIT_CORE=U0"}
	if !reflect.DeepEqual(env, want) || len(errs) != 1 || errs[0].Error() != "getrlimit (RLIMIT_AS): nope" {
		t.Fatalf("Env = %q, %v", env, errs)
	}
	env, _ = Env(1<<4, false, get)
	if !reflect.DeepEqual(env, []string{"SLURM_RLIMIT_CORE=0"}) {
		t.Fatalf("Env without user = %q", env)
	}
}

func TestTake(t *testing.T) {
	env := []string{"A=1", "SLURM_RLIMIT_CORE=0", "SLURM_RLIMIT_STACK=U8388608", "SLURM_RLIMIT_NOFILE=x12",
		"SLURM_RLIMIT_AS=18446744073709551615", "SLURM_RLIMIT_CORE=5", "SLURM_RLIMIT_CPUX=1", "B=2"}
	conf, _ := Parse("CORE,NOFILE", true)
	reqs, rest, problems := Take(env, conf)
	wantReqs := []Request{{"STACK", 3, 8388608, true}, {"CORE", 4, 0, false}}
	if !reflect.DeepEqual(reqs, wantReqs) {
		t.Errorf("reqs = %+v", reqs)
	}
	if want := []string{"A=1", "SLURM_RLIMIT_NOFILE=x12", "SLURM_RLIMIT_CPUX=1", "B=2"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("rest = %q", rest)
	}
	if want := []string{"Invalid SLURM_RLIMIT_NOFILE env var, value = `x12'"}; !reflect.DeepEqual(problems, want) {
		t.Errorf("problems = %q", problems)
	}
	if reqs[0].Unlimited() {
		t.Error("8388608 is not unlimited")
	}
}

func TestStrtoul(t *testing.T) {
	for in, want := range map[string]uint64{"": 0, "0": 0, " 12": 12, "+3": 3, "-1": ^uint64(0), "99999999999999999999999": ^uint64(0)} {
		if got, ok := strtoul(in); !ok || got != want {
			t.Errorf("strtoul(%q) = %d, %v", in, got, ok)
		}
	}
	for _, in := range []string{" ", "+", "1 ", "0x10", "U1", "1.5"} {
		if _, ok := strtoul(in); ok {
			t.Errorf("strtoul(%q) accepted", in)
		}
	}
}

// TestCurrentNofile starts this test binary under a shell that lowered the soft NOFILE limit
// and checks that Current reports the shell's value, not the one Go raised itself to.
func TestCurrentNofile(t *testing.T) {
	if os.Getenv("RLIMITS_TEST_CHILD") == "1" {
		cur, _, err := Current(nofile)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("NOFILE=" + strconv.FormatUint(cur, 10) + "\n")
		return
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	for _, lim := range []string{"777", "$(ulimit -Hn)"} {
		cmd := exec.Command("/bin/sh", "-c", `ulimit -Sn `+lim+` && ulimit -Sn && exec "$0" -test.run='^TestCurrentNofile$' -test.count=1`, os.Args[0])
		cmd.Env = append(os.Environ(), "RLIMITS_TEST_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		lines := strings.Split(string(out), "\n")
		want := "NOFILE=" + lines[0]
		if lines[0] == "unlimited" {
			want = "NOFILE=" + strconv.FormatUint(^uint64(0), 10)
		}
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("ulimit -Sn %s: child printed %q, want %s", lim, out, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"ALL", "NONE", "CORE,STACK", "RLIMIT_AS", "RLIMIT_RLIMIT_AS", " ,\t", "all"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, propagate bool) {
		got, err := Parse(s, propagate)
		if err != nil {
			if !errors.Is(err, ErrBadName) || got != 0 {
				t.Fatalf("Parse(%q): %v, %v", s, got, err)
			}
			return
		}
		if got&^All != 0 {
			t.Fatalf("Parse(%q) = %b: outside the table", s, got)
		}
	})
}

func FuzzTake(f *testing.F) {
	f.Add("SLURM_RLIMIT_CORE=U0\x00SLURM_RLIMIT_NOFILE=1024\x00X=1", uint16(All))
	f.Add("SLURM_RLIMIT_STACK=\x00SLURM_RLIMIT_AS=-1", uint16(0))
	f.Fuzz(func(t *testing.T, joined string, conf uint16) {
		env := strings.Split(joined, "\x00")
		reqs, rest, problems := Take(env, Set(conf)&All)
		if len(rest) > len(env) || len(reqs) > len(Limits) || len(problems) > len(Limits) {
			t.Fatalf("Take grew: %d reqs, %d rest, %d problems", len(reqs), len(rest), len(problems))
		}
		for _, r := range reqs {
			for _, kv := range rest {
				if strings.HasPrefix(kv, "SLURM_RLIMIT_"+r.Name+"=") {
					t.Fatalf("%s taken but left in %q", r.Name, rest)
				}
			}
		}
	})
}

func TestCommand(t *testing.T) {
	get := func(res int) (uint64, uint64, error) { return uint64(res), 100, nil }
	env, msg, ok := Command("sbatch", "FOO", true, All, get)
	if ok || env != nil || msg != "sbatch: error: Bad rlimit name: FOO\nsbatch: error: --propagate=FOO is not valid.\n" {
		t.Fatalf("bad list: %q %q %v", env, msg, ok)
	}
	env, msg, ok = Command("srun", "", false, 1<<3|1<<4, get)
	if !ok || msg != "" || !reflect.DeepEqual(env, []string{"SLURM_RLIMIT_STACK=3", "SLURM_RLIMIT_CORE=4"}) {
		t.Fatalf("conf: %q %q %v", env, msg, ok)
	}
	env, _, _ = Command("srun", "NOFILE", true, All, get)
	if !reflect.DeepEqual(env, []string{"SLURM_RLIMIT_NOFILE=U7"}) {
		t.Fatalf("user: %q", env)
	}
	if env, _, _ = Command("srun", "NONE", true, All, get); len(env) != 0 {
		t.Fatalf("NONE: %q", env)
	}
}

func TestSetEnv(t *testing.T) {
	got := SetEnv([]string{"A=1", "SLURM_RLIMIT_CORE=9", "B=2", "SLURM_RLIMIT_CORE=8"}, []string{"SLURM_RLIMIT_CORE=0", "SLURM_RLIMIT_AS=1"})
	want := []string{"A=1", "SLURM_RLIMIT_CORE=0", "B=2", "SLURM_RLIMIT_AS=1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SetEnv = %q", got)
	}
}

// BenchmarkStartNofile is what a command pays once when Go has raised its soft NOFILE
// limit (the usual soft < hard case): one /bin/true started and reaped.
func BenchmarkStartNofile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		startOnce = sync.Once{}
		if _, ok := startNofile(); !ok {
			b.Fatal("no /bin/true")
		}
	}
}
