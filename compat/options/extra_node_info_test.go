package options

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// TestParseExtraNodeInfo checks -B against Slurm 22.05's verify_socket_core_thread_count:
// the values are what the reference's `scontrol show job` printed for the same -B
// (Socks/Node and ReqB:S:C:T), and the errors its sbatch printed (exit 1).
func TestParseExtraNodeInfo(t *testing.T) {
	const nv = jobspec.NoVal
	for _, tc := range []struct {
		in   string
		want [3]uint32
		err  string
	}{
		{"1", [3]uint32{1, nv, nv}, ""},
		{"2", [3]uint32{2, nv, nv}, ""},
		{"1:*:1", [3]uint32{1, nv, 1}, ""},
		{"*:1", [3]uint32{nv, 1, nv}, ""},
		{"1-2", [3]uint32{1, nv, nv}, ""},
		{"2:4:2:junk", [3]uint32{2, 4, 2}, ""},
		{"1k", [3]uint32{1024, nv, nv}, ""},
		{"x", [3]uint32{}, `sbatch: error: Invalid numeric value "x" for first arg of -B.`},
		{"1:y", [3]uint32{}, `sbatch: error: Invalid numeric value "y" for second arg of -B.`},
		{"1:1:-3", [3]uint32{}, `sbatch: error: Invalid numeric value "-3" for third arg of -B.`},
		{"2-0", [3]uint32{}, `sbatch: error: Invalid numeric value "2-0" for first arg of -B.`},
		{"3000000000", [3]uint32{}, `sbatch: error: Numeric argument (3000000000) to big for first arg of -B.`},
	} {
		got, err := parseExtraNodeInfo(Sbatch, tc.in)
		switch {
		case tc.err != "":
			e, ok := err.(*Error)
			if !ok || e.ExitCode != 1 || e.Stderr != tc.err+"\n" {
				t.Errorf("-B %s: error %#v, want %q and exit 1", tc.in, err, tc.err)
			}
		case err != nil || got != tc.want:
			t.Errorf("-B %s = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseExtraNodeInfo: any -B value parses or is refused with exit 1, never a panic.
func FuzzParseExtraNodeInfo(f *testing.F) {
	for _, s := range []string{"1", "1:*:1", "*:1", "x", "1-2", "1k:2m", "::", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := parseExtraNodeInfo(Sbatch, s); err != nil {
			if e, ok := err.(*Error); !ok || e.ExitCode != 1 {
				t.Fatalf("-B %q: %#v", s, err)
			}
		}
	})
}
