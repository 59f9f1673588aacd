package getopt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/getopt"
)

// table is a small Slurm-like table: a pair sharing one Val (--cpu_bind/--cpu-bind), a
// prefix family (--st), an optional argument, and an Orbit extension.
var table = []getopt.Option{
	{Long: "cpu-bind", Arg: getopt.RequiredArg, Val: "cpu-bind"},
	{Long: "cpu_bind", Arg: getopt.RequiredArg, Val: "cpu-bind"},
	{Long: "cpus-per-task", Short: 'c', Arg: getopt.RequiredArg, Val: "c"},
	{Long: "het-group", Arg: getopt.RequiredArg, Val: "het"},
	{Long: "het-grouping", Arg: getopt.RequiredArg, Val: "het"},
	{Long: "hold", Short: 'H', Val: "H"},
	{Long: "jobs", Short: 'j', Arg: getopt.OptionalArg, Val: "j"},
	{Long: "output", Short: 'o', Arg: getopt.RequiredArg, Val: "o"},
	{Long: "start", Val: "start"},
	{Long: "states", Short: 't', Arg: getopt.RequiredArg, Val: "t"},
	{Long: "steps", Short: 's', Arg: getopt.OptionalArg, Val: "s"},
	{Long: "verbose", Short: 'v', Val: "v"},
	{Long: "min-power", Arg: getopt.RequiredArg, Val: "min-power", Fallback: true},
	{Long: "start-later", Fallback: true},
}

// show renders a result as "long=value ... | operands" (a non-option reported in order is
// shown as "<word>").
func show(found []getopt.Found, operands []string) string {
	var parts []string
	for _, f := range found {
		s := "<" + f.Value + ">"
		if f.Option >= 0 {
			s = table[f.Option].Long
			if f.HasValue {
				s += "=" + f.Value
			}
		}
		parts = append(parts, s)
	}
	return strings.TrimSpace(strings.Join(parts, " ") + " | " + strings.Join(operands, " "))
}

func TestParse(t *testing.T) {
	P, R, I := getopt.Permute, getopt.RequireOrder, getopt.ReturnInOrder
	cases := []struct {
		mode getopt.Mode
		args string // after argv[0] "prog", split on spaces
		want string // show(), or the error text
	}{
		// Orderings and "--".
		{P, "-H x -v y", "hold verbose | x y"},
		{R, "-H x -v y", "hold | x -v y"},
		{I, "-H x -v y", "hold <x> verbose <y> |"},
		{P, "x -- -H y", "| x -H y"},
		{R, "-- -H", "| -H"},
		{I, "x -- -H", "<x> | -H"},
		{P, "- -H", "hold | -"},
		{R, "- -H", "| - -H"},
		// Short options: clusters, attached and separate arguments, "-o=x".
		{P, "-Hvc2", "hold verbose cpus-per-task=2 |"},
		{P, "-c 2 -o=x", "cpus-per-task=2 output==x |"},
		{P, "-o -- x", "output=-- | x"},
		{P, "-j -j12 -s", "jobs jobs=12 steps |"},
		{P, "-j 12", "jobs | 12"},
		// Long options: '=', separate argument, optional arguments only attached.
		{P, "--output=f --output g --jobs --jobs=3 --jobs= x", "output=f output=g jobs jobs=3 jobs= | x"},
		{P, "--out f", "output=f |"},
		{P, "--cpu-bind=a --cpu-b=b --cpu_=c", "cpu-bind=a cpu-bind=b cpu_bind=c |"},
		// Exact match wins over longer names; same-Val prefixes are one option.
		{P, "--start", "start |"},
		{P, "--het=x --het-group=y", "het-group=x het-group=y |"},
		// Fallback options only when nothing else matches.
		{P, "--min=5 --start-l", "min-power=5 start-later |"},
		{P, "--start-", "start-later |"},
		// glibc's errors, argv[0] as given.
		{P, "--st=1", "prog: option '--st=1' is ambiguous; possibilities: '--start' '--states' '--steps'"},
		{P, "--cpu", "prog: option '--cpu' is ambiguous; possibilities: '--cpu-bind' '--cpus-per-task'"},
		{P, "--h", "prog: option '--h' is ambiguous; possibilities: '--het-group' '--hold'"},
		{P, "--=x", "prog: option '--=x' is ambiguous; possibilities: '--cpu-bind' '--cpus-per-task' '--het-group' '--het-grouping' '--hold' '--jobs' '--output' '--start' '--states' '--steps' '--verbose'"},
		{P, "--bogus=1", "prog: unrecognized option '--bogus=1'"},
		{P, "---x", "prog: unrecognized option '---x'"},
		{P, "-Hz", "prog: invalid option -- 'z'"},
		{P, "-:", "prog: invalid option -- ':'"},
		{P, "-c", "prog: option requires an argument -- 'c'"},
		{P, "--output", "prog: option '--output' requires an argument"},
		{P, "--ho=1", "prog: option '--hold' doesn't allow an argument"},
		{R, "x --bogus", "| x --bogus"},
	}
	for _, c := range cases {
		argv := append([]string{"prog"}, strings.Split(c.args, " ")...)
		found, operands, err := getopt.Parse(argv, table, c.mode)
		got := show(found, operands)
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("mode %d %q:\n got %q\nwant %q", c.mode, c.args, got, c.want)
		}
	}
}

// TestParse_FoundBeforeError checks that the options before a bad one are returned with
// the error, for commands that act on each option as it is read.
func TestParse_FoundBeforeError(t *testing.T) {
	found, _, err := getopt.Parse([]string{"./p", "-v", "--hold", "-z", "-H"}, table, getopt.Permute)
	if got := show(found, nil); got != "verbose hold |" || err == nil || err.Error() != "./p: invalid option -- 'z'" {
		t.Errorf("got %q, %v", got, err)
	}
	if found[1].Argi != 2 {
		t.Errorf("Argi = %d, want 2", found[1].Argi)
	}
}

func TestParse_EmptyArgv(t *testing.T) {
	found, operands, err := getopt.Parse(nil, table, getopt.Permute)
	if len(found) != 0 || len(operands) != 0 || err != nil {
		t.Errorf("got %v %v %v", found, operands, err)
	}
}

// FuzzGetopt checks that no argument list makes Parse panic, and that the orderings agree
// where they must: without non-options they find the same options and errors.
func FuzzGetopt(f *testing.F) {
	for _, s := range []string{"-H x -v", "-Hvc2", "--cpu=x", "--het=1", "--h", "--st=1", "--=x", "--", "-", "-c",
		"--output", "--ho=1", "-o=x", "--jobs= -j", "--min=5", "-- -H", "---", "-:", "--start-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := append([]string{"prog"}, strings.Split(s, " ")...)
		var got [3]string
		for m, mode := range []getopt.Mode{getopt.Permute, getopt.RequireOrder, getopt.ReturnInOrder} {
			found, operands, err := getopt.Parse(argv, table, mode)
			for _, f := range found {
				if f.Argi < 1 || f.Argi >= len(argv) || f.Option >= len(table) {
					t.Fatalf("%q: bad Found %+v", argv, f)
				}
			}
			got[m] = fmt.Sprint(found, operands, err)
		}
		if hasNonOption(argv) {
			return
		}
		if got[0] != got[1] || got[0] != got[2] {
			t.Fatalf("%q: orderings disagree:\n%s\n%s\n%s", argv, got[0], got[1], got[2])
		}
	})
}

// hasNonOption reports whether an argument of argv[1:] does not look like an option. When
// every one does, the orderings cannot differ: "--" either ends the options (what follows
// is the operands in every ordering) or is some option's argument.
func hasNonOption(argv []string) bool {
	for _, a := range argv[1:] {
		if len(a) < 2 || a[0] != '-' {
			return true
		}
	}
	return false
}
