package scenario

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{`a b  c`, []string{"a", "b", "c"}, ""},
		{`--wrap "sleep 600"`, []string{"--wrap", "sleep 600"}, ""},
		{`'Reason=a b' x"y z"w`, []string{"Reason=a b", "xy zw"}, ""},
		{`"a\"b" a\ b ''`, []string{`a"b`, "a b", ""}, ""},
		{`"open`, nil, `unterminated " quote`},
		{`'open`, nil, `unterminated ' quote`},
		{`tail\`, nil, "trailing backslash"},
	} {
		got, err := SplitWords(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("SplitWords(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParse_Errors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"frob x", `scenario line 1: unknown operation "frob"`},
		{"run x ls", `scenario line 1: command "ls" is not one of`},
		{"run x squeue\nrun x squeue", `scenario line 2: capture name "x" already used on line 1`},
		{"run x squeue -j $nope", `scenario line 1: "$nope": $nope is bound by no earlier submit`},
		{"submit a x squeue", `scenario line 1: submit runs sbatch, not squeue`},
		{"submit A x sbatch", `scenario line 1: submit needs a LABEL`},
		{"wait $a RUNNING", `scenario line 1: "$a": $a is bound by no earlier submit`},
		{"submit a s sbatch --wrap true\nwait $a running", `scenario line 2: wait state "running"`},
		{"shape x out y", `scenario line 1: shape of "x", which is no earlier orbit capture`},
		{"orbit x sinfo\nshape x out (", `scenario line 2: shape regexp:`},
		{"orbit x sinfo\nshape x both y", `scenario line 2: shape stream "both"`},
		{"run x squeue -j $", `scenario line 1: "$": a lone $`},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want %q...", c.in, err, c.want)
		}
	}
}

func TestParse_Scenario(t *testing.T) {
	steps, err := Parse("submit a sub sbatch --parsable --wrap \"sleep 1\"\nwait ${a}_1 RUNNING,PENDING\n# c\nrun q squeue -j $a\norbit d sinfo\nshape d out \nshape d rc 0")
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 6 || steps[0].Label != "a" || steps[1].Target != "${a}_1" || !slices.Equal(steps[1].States, []string{"RUNNING", "PENDING"}) {
		t.Fatalf("%+v", steps)
	}
	if got := Expand(steps[1].Target, map[string]string{"a": "17"}); got != "17_1" {
		t.Errorf("Expand: %q", got)
	}
	if !steps[4].Shape.MatchString("") || steps[4].Shape.MatchString("x") || !steps[5].Shape.MatchString("0") {
		t.Errorf("shape lines: %v %v", steps[4].Shape, steps[5].Shape)
	}
}

func TestNormalise(t *testing.T) {
	n := NewNormaliser(Env{WorkDir: "/tmp/w1", User: "alice", UID: "1000", Group: "staff", GID: "50"})
	in := "JobId=57 JobName=x\n   UserId=alice(1000) GroupId=staff(50)\n   Priority=4294901757 Dependency=afterok:56(unfulfilled)\n" +
		"   SubmitTime=2026-11-23T05:03:03 RunTime=00:00:07\n   AllocNode:Sid=vm:12345 WorkDir=/tmp/w1 StdOut=/tmp/w1/slurm-57.out\n" +
		"   CPULoad=2.30 FreeMem=22933 ArrayJobId=55 ArrayTaskId=1\n"
	want := "JobId=_A JobName=x\n   UserId=root(0) GroupId=root(0)\n   Priority=P Dependency=afterok:_B(unfulfilled)\n" +
		"   SubmitTime=YYYY-MM-DDTHH:MM:SS RunTime=ELAPSED\n   AllocNode:Sid=HOST:SID WorkDir=$WORKDIR StdOut=$WORKDIR/slurm-_A.out\n" +
		"   CPULoad=LIVE FreeMem=LIVE ArrayJobId=_C ArrayTaskId=1\n"
	if got := n.Normalise("scontrol", in); got != want {
		t.Errorf("scontrol:\n%s\nwant\n%s", got, want)
	}
	// squeue's first column, array tasks included; later captures reuse the mapping.
	got := n.Normalise("squeue", "             JOBID\n                57\n              55_1\n        55_[3-4%2]\n 9 x\n")
	if want := "             JOBID\n                _A\n              _C_1\n        _C_[3-4%2]\n D x\n"; got != want {
		t.Errorf("squeue:\n%q\nwant\n%q", got, want)
	}
	if got := n.Normalise("sinfo", "57 n1\n"); got != "57 n1\n" {
		t.Errorf("sinfo's first field is no job id: %q", got)
	}
	if got := n.Normalise("sbatch", "Submitted batch job 60\n"); got != "Submitted batch job _E\n" {
		t.Errorf("sbatch: %q", got)
	}
	if got := n.Normalise("sbatch", "61;anchor\n"); got != "_F;anchor\n" {
		t.Errorf("sbatch --parsable: %q", got)
	}
	// Seeded ids keep their tokens whatever order outputs mention them in; numbers no job
	// can have stay; squeue --long's date line is a time.
	m := NewNormaliser(Env{})
	m.Seed("70")
	m.Seed("71")
	if got := m.Normalise("scontrol", "JobId=71 JobId=72 job 4000000000 JobId=70\n"); got != "JobId=_B JobId=_C job 4000000000 JobId=_A\n" {
		t.Errorf("seeded: %q", got)
	}
	if got := m.Normalise("squeue", "Mon Nov 23 05:09:25 2026\n"); got != "Day Mon DD HH:MM:SS YYYY\n" {
		t.Errorf("squeue -l date: %q", got)
	}
}

func TestParseKnownDiffs(t *testing.T) {
	kd, err := ParseKnownDiffs("# c\n\nshow-node out CPULoad is printed with two decimals\n")
	if err != nil || kd["show-node out"].Reason != "CPULoad is printed with two decimals" || kd["show-node out"].Line != 3 {
		t.Fatalf("%v %v", kd, err)
	}
	for _, bad := range []string{"x out", "x both reason", "x out r\nx out again"} {
		if _, err := ParseKnownDiffs(bad); err == nil {
			t.Errorf("ParseKnownDiffs(%q): no error", bad)
		}
	}
}

// FuzzParse: any scenario text either parses or is refused with an error naming a line;
// never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"submit a s sbatch --wrap \"x y\"\nwait ${a}_1 RUNNING\nrun q squeue -j $a",
		"orbit d scontrol update NodeName=n1 State=DRAIN 'Reason=a b'\nshape d out (?s).*\nshape d rc 0",
		"run x squeue -o \"%i \\\"%t\"", "wait", "shape", "run x sinfo '", "run x sinfo ${}", "run x sinfo \\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "scenario line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		ids := map[string]string{}
		for _, st := range steps {
			if st.Op == OpSubmit {
				ids[st.Label] = "1"
			}
			for _, a := range st.Args {
				// Parse refused every $ that is not a bound label.
				if strings.Contains(Expand(a, ids), "$") {
					t.Fatalf("unexpanded reference in %q", a)
				}
			}
		}
	})
}

// FuzzParseKnownDiffs: never a panic; every accepted entry has a stream and a reason.
func FuzzParseKnownDiffs(f *testing.F) {
	f.Add("a out reason\n# c\nb rc why not")
	f.Add("a out")
	f.Fuzz(func(t *testing.T, s string) {
		kd, err := ParseKnownDiffs(s)
		if err != nil {
			return
		}
		for _, k := range kd {
			if k.Reason == "" || (k.Stream != "out" && k.Stream != "err" && k.Stream != "rc") {
				t.Fatalf("accepted %+v", k)
			}
		}
	})
}

// FuzzNormalise: never a panic, and the same input normalises the same way every time.
func FuzzNormalise(f *testing.F) {
	f.Add("squeue", "   57_[1-3] x\nJobId=57 RunTime=1:00 Priority=5\n")
	f.Add("sbatch", "Submitted batch job 9\n")
	f.Fuzz(func(t *testing.T, cmd, s string) {
		env := Env{WorkDir: "/w", User: "alice", UID: "1", Group: "g", GID: "2"}
		if a, b := NewNormaliser(env).Normalise(cmd, s), NewNormaliser(env).Normalise(cmd, s); a != b {
			t.Fatalf("%q then %q", a, b)
		}
	})
}
