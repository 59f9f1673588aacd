package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/testbin"
)

// run executes Orbit's scontrol binary (as "scontrol") with args and an empty environment.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := testbin.Path(t, "scontrol")
	cmd := &exec.Cmd{Path: bin, Args: append([]string{"scontrol"}, args...), Env: []string{"PATH=/usr/bin:/bin"}}
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// The reference prints "slurm-wlm 22.05.8" (Debian's build); Orbit prints its own version
// line, which keeps the `slurm X.Y.Z` shape tools parse.
func TestScontrol_Version(t *testing.T) {
	want := version.String() + "\n"
	for _, args := range [][]string{{"-V"}, {"--version"}, {"--vers"}, {"version"}, {"show", "hostnames", "a", "-V"}} {
		out, errOut, code := run(t, "", args...)
		if out != want || errOut != "" || code != 0 {
			t.Errorf("scontrol %q = %q, %q, exit %d; want %q, exit 0", args, out, errOut, code, want)
		}
	}
	out, _, _ := run(t, "", "-vV")
	if out != want+"slurm_api_version: 2490368, 38.0.0\n" {
		t.Errorf("scontrol -vV = %q", out)
	}
}

// Commands and entities Orbit does not have yet are refused by name with exit code 1, never
// answered with made-up output.
func TestScontrol_UnsupportedIsRefused(t *testing.T) {
	tests := []struct {
		args []string
		name string
	}{
		{[]string{"takeover"}, `"takeover"`},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "", tt.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, tt.name) || !strings.Contains(errOut, "not supported by Orbit yet") {
			t.Errorf("scontrol %q = %q, %q, exit %d; want a refusal naming %s, exit 1", tt.args, out, errOut, code, tt.name)
		}
	}
}

func TestScontrol_HelpIsSlurms(t *testing.T) {
	out, _, code := run(t, "", "--help")
	if code != 0 || out != usageText || !strings.HasPrefix(out, "scontrol [<OPTION>] [<COMMAND>]") {
		t.Errorf("scontrol --help: exit %d, %d bytes", code, len(out))
	}
}

func TestKeywordIs(t *testing.T) {
	tests := []struct {
		tag, kw string
		min     int
		want    bool
	}{
		{"show", "show", 3, true},
		{"sho", "show", 3, true},
		{"sh", "show", 3, false},
		{"SHOW", "show", 3, true},
		{"showx", "show", 3, false},
		{"hostn", "hostnames", 5, true},
		{"hostl", "hostnames", 5, false},
		{"hostlists", "hostlistsorted", 9, true},
	}
	for _, tt := range tests {
		if got := abbrev(tt.tag, tt.kw, tt.min); got != tt.want {
			t.Errorf("abbrev(%q, %q, %d) = %v", tt.tag, tt.kw, tt.min, got)
		}
	}
}

func TestSplitLine(t *testing.T) {
	c := &cli{}
	tests := []struct {
		line string
		want []string
	}{
		{"show hostnames a[1-2]", []string{"show", "hostnames", "a[1-2]"}},
		{"  show   x  ", []string{"show", "x"}},
		{`show hostlist "a1 a2"`, []string{"show", "hostlist", `"a1`, `a2"`}}, // an opening quote is not seen
		{`show hostlist x'a b'`, []string{"show", "hostlist", `x'a b'`}},
		{"", nil},
	}
	for _, tt := range tests {
		got, ok := c.splitLine(tt.line)
		if !ok || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("splitLine(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
	// Slurm takes 128 words on a line (its message says 127) and refuses the 129th.
	if w, ok := quietCLI().splitLine(strings.Repeat("w ", maxInputFields)); !ok || len(w) != maxInputFields {
		t.Errorf("128 words: %d words, ok %v", len(w), ok)
	}
	var errOut strings.Builder
	long := quietCLI()
	long.stderr = &errOut
	if _, ok := long.splitLine(strings.Repeat("w ", maxInputFields+1)); ok || long.exitCode != 1 ||
		errOut.String() != "scontrol: can not process over 127 words\n" {
		t.Errorf("129 words: ok %v, exit %d, stderr %q", ok, long.exitCode, errOut.String())
	}
}
