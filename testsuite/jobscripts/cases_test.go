package jobscripts

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  -J x  ", []string{"-J", "x"}},
		{`--wrap="echo \"a b\"; echo \$HOME" -o 'x y'`, []string{`--wrap=echo "a b"; echo $HOME`, "-o", "x y"}},
		{`a\ b ''`, []string{"a b", ""}},
	}
	for _, c := range cases {
		got, err := SplitWords(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `trailing\`} {
		if _, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q): no error", bad)
		}
	}
}

func TestParseCases(t *testing.T) {
	cs, err := ParseCases("# comment\n\nhello|h.sh||\nenv|h.sh|-J 'a b'|x|SBATCH_JOB_NAME=n\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[1].Opts[1] != "a b" || cs[1].Args[0] != "x" || cs[1].Env[0] != "SBATCH_JOB_NAME=n" {
		t.Errorf("ParseCases = %+v", cs)
	}
	for _, bad := range []string{"a|b", "|s.sh||", "a|s||\na|s||", "a|s|'||", "a|s|||NOEQUALS"} {
		if _, err := ParseCases(bad); err == nil || !strings.HasPrefix(err.Error(), "cases.txt:") {
			t.Errorf("ParseCases(%q) = %v, want a cases.txt:<line> error", bad, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	r := Run{
		Stdout:   "Submitted batch job 1234\n",
		Files:    []string{"z.out", "slurm-1234.out", "pad_0000001234_1240.out"},
		Contents: map[string]string{"z.out": "x", "slurm-1234.out": "job 1234 in /tmp/s/x on vm (vmware 12345)\n"},
		Ids:      Ids{JobID: 1234, TaskJobIDs: []uint32{1240}, SubmitDir: "/tmp/s", Host: "vm"},
	}
	want := "sbatch exit status 0\n--- sbatch stdout\nSubmitted batch job @JOBID@\n--- sbatch stderr\n--- final state\n" +
		"--- files\npad_@JOBID@_@TASKJOBID@.out\nslurm-@JOBID@.out\nz.out\n" +
		"--- file pad_@JOBID@_@TASKJOBID@.out\n" +
		"--- file slurm-@JOBID@.out\njob @JOBID@ in @SUBMITDIR@/x on @HOST@ (vmware 12345)\n--- file z.out\nx"
	if got := Normalize(r); got != want {
		t.Errorf("Normalize =\n%s\nwant\n%s", got, want)
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"", `-o 'a b' --wrap="x \"y\""`, `a\`, `"`, `'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		SplitWords(s) // must not panic or hang
	})
}

func FuzzParseCases(f *testing.F) {
	f.Add("hello|h.sh||\n")
	f.Add("a|b|'c d'|e|F=1\n#x\n")
	f.Add("|||\n")
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseCases(s)
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Name == "" {
				t.Fatalf("case without a name from %q", s)
			}
		}
	})
}
