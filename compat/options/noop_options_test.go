package options

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSrunNoOpOptions: --accel-bind, --compress and --resv-ports are read as Slurm 22.05's
// srun reads them (the reference's messages and exit codes for bad values); what they do
// on a cluster is cmdclient.NoOpRefusal's call.
func TestSrunNoOpOptions(t *testing.T) {
	for _, c := range []struct {
		args            []string
		stderr          string // the error's, or the warning's
		code            int    // 0: accepted
		accel, compress string
		resvSet         bool
		resv            uint32
	}{
		{[]string{"--accel-bind=vg"}, "", 0, "vg", "", false, 0},
		{[]string{"--accel-bind=x"}, "srun: error: Invalid --accel-bind specification\n", 255, "", "", false, 0},
		{[]string{"--compress"}, "", 0, "", "", false, 0},
		{[]string{"--compress=zlib"}, "srun: error: Compression type 'zlib' unknown, disabling compression support.\n", 0, "", "zlib", false, 0},
		{[]string{"--resv-ports"}, "", 0, "", "", true, 0},
		{[]string{"--resv-ports=0"}, "", 0, "", "", true, 0},
		{[]string{"--resv-ports=3"}, "", 0, "", "", true, 3},
		{[]string{"--resv-ports=-2"}, "srun: error: Invalid numeric value \"-2\" for --resv-port.\n", 1, "", "", false, 0},
	} {
		js, err := ParseSrun(append(append([]string{"srun"}, c.args...), "true"), nil, "/tmp", time.Now())
		if c.code != 0 {
			var perr *Error
			if !errors.As(err, &perr) || perr.Stderr != c.stderr || perr.ExitCode != c.code {
				t.Errorf("%v: %v, want %q exit %d", c.args, err, c.stderr, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if got := strings.Join(js.Warnings, ""); got != c.stderr || js.AccelBind != c.accel || js.Compress != c.compress ||
			js.ResvPortsSet != c.resvSet || js.ResvPorts != c.resv {
			t.Errorf("%v: warnings %q accel %q compress %q resv %v/%d", c.args, got, js.AccelBind, js.Compress, js.ResvPortsSet, js.ResvPorts)
		}
	}
}
