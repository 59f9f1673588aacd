package main

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestScontrol_WriteArguments: the argument errors of `write`, recorded from the reference
// (they need no controller): exit 1 and Slurm's words; `write batch_script` without a job id
// does nothing and exits 0, as Slurm's does.
func TestScontrol_WriteArguments(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		errText string
		code    int
	}{
		{[]string{"write"}, "too few arguments for keyword:write\n", 1},
		{[]string{"write", "foo"}, "invalid write argument:foo\n", 1},
		{[]string{"write", "bat", "1"}, "invalid write argument:bat\n", 1},
		{[]string{"write", "batch_script", "1", "a", "b"}, "too many arguments for keyword:write\n", 1},
		{[]string{"write", "batch_script"}, "", 0},
		{[]string{"write", "BATCH"}, "", 0},
	} {
		out, errOut, code := run(t, "", tc.args...)
		if out != "" || errOut != tc.errText || code != tc.code {
			t.Errorf("scontrol %q = %q, %q, exit %d; want stderr %q, exit %d", tc.args, out, errOut, code, tc.errText, tc.code)
		}
	}
}

func TestAtoll(t *testing.T) {
	for in, want := range map[string]int64{"12": 12, "12x": 12, "1_0": 1, " +7": 7, "-1": -1, "abc": 0, "": 0,
		"4294967297": 4294967297, "99999999999999999999": 1<<63 - 1, "-99999999999999999999": -1 << 63} {
		if got := atoll(in); got != want {
			t.Errorf("atoll(%q) = %d, want %d", in, got, want)
		}
	}
	// The job id is atoll's value cut to 32 bits, as Slurm's uint32_t assignment.
	if got := uint32(atoll("4294967297")); got != 1 {
		t.Errorf("job id of 4294967297 = %d, want 1", got)
	}
}

// FuzzAtoll checks that the job id reader never panics and agrees with strconv on the digits
// it reads.
func FuzzAtoll(f *testing.F) {
	for _, s := range []string{"12", "12x", " -3", "+", "", "99999999999999999999", "\t\n5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := atoll(s)
		i := 0
		for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
			i++
		}
		j := i
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && unicode.IsDigit(rune(s[k])) && s[k] < 0x80 {
			k++
		}
		if k == j {
			if got != 0 {
				t.Fatalf("atoll(%q) = %d without digits", s, got)
			}
			return
		}
		want, err := strconv.ParseInt(s[i:k], 10, 64)
		if err != nil && !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("strconv on %q: %v", s[i:k], err)
		}
		if got != want {
			t.Fatalf("atoll(%q) = %d, strconv %d", s, got, want)
		}
	})
}
