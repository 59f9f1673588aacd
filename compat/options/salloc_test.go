package options

import (
	"strings"
	"testing"
	"time"
)

func TestParseSallocOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  []string
		want SallocOptions
		err  string
		code int
	}{
		{args: []string{"-I", "true"}, want: SallocOptions{Immediate: 1}},
		{args: []string{"--immediate=7", "--no-shell"}, want: SallocOptions{Immediate: 7, NoShell: true}},
		{args: []string{"--bell", "-K"}, want: SallocOptions{Bell: BellAlways, KillCommand: 15}},
		{args: []string{"--no-bell", "--kill-command=sigusr1"}, want: SallocOptions{Bell: BellNever, KillCommand: 10}},
		{args: []string{"-K9"}, want: SallocOptions{KillCommand: 9}},
		{env: []string{"SALLOC_IMMEDIATE=3"}, want: SallocOptions{Immediate: 3}},
		{args: []string{"--immediate=abc"}, err: "salloc: error: Invalid numeric value \"abc\" for immediate.\n", code: 1},
		{args: []string{"--kill-command=NOSUCH"}, err: "salloc: error: Invalid --kill-command specification\n", code: 255},
	} {
		_, so, err := ParseSallocOptions(append([]string{"salloc"}, tc.args...), tc.env, "/tmp", time.Unix(0, 0))
		if tc.err != "" {
			e, ok := err.(*Error)
			if !ok || e.Stderr != tc.err || e.ExitCode != tc.code {
				t.Errorf("%v: error %v, want %q (exit %d)", tc.args, err, tc.err, tc.code)
			}
			continue
		}
		if err != nil || *so != tc.want {
			t.Errorf("%v %v: %+v, %v; want %+v", tc.args, tc.env, so, err, tc.want)
		}
	}
	// srun shares -I (its JobSpec.Immediate).
	for _, tc := range []struct {
		arg  string
		want int
	}{{"-I", 1}, {"-I5", 5}, {"--immediate=", 0}, {"--immediate=30", 30}} {
		js, err := ParseSrun([]string{"srun", tc.arg, "true"}, nil, "/tmp", time.Unix(0, 0))
		if err != nil || js.Immediate != tc.want {
			t.Errorf("srun %s: immediate %v, %v; want %d", tc.arg, js, err, tc.want)
		}
	}
	if _, err := ParseSrun([]string{"srun", "-Ix", "true"}, nil, "/tmp", time.Unix(0, 0)); err == nil ||
		!strings.Contains(err.Error(), `Invalid numeric value "x" for immediate.`) {
		t.Errorf("srun -Ix: %v", err)
	}
}

func FuzzParseSallocOptions(f *testing.F) {
	for _, s := range []string{"-I", "--immediate=5", "-K", "--kill-command=TERM", "--no-shell --bell",
		"-N2 -n3 sh -c x", "--immediate=", "-K-1", "--kill-command=SIG"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"salloc"}, strings.Fields(line)...)
		js, so, err := ParseSallocOptions(args, nil, "/tmp", time.Unix(0, 0))
		if err != nil {
			if e, ok := err.(*Error); ok && (e.Stderr == "" || e.ExitCode == 0) {
				t.Fatalf("%q: error without text or exit code: %+v", line, e)
			}
			return
		}
		if js == nil || so == nil || so.Immediate < 0 || so.KillCommand < 0 || so.KillCommand > 64 {
			t.Fatalf("%q: %+v %+v", line, js, so)
		}
	})
}
