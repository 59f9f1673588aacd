package conf_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
)

// TestShowConfig_MatchesReference renders the reference's own slurm.conf and compares it with
// what the reference's `scontrol show config` printed, byte for byte. The values only a running
// controller knows are taken from the recorded output and passed in as ShowConfigRuntime:
// the "data as of" time and BOOT_TIME (when the command ran and the controller started),
// NEXT_JOB_ID (how many jobs others submitted), SLURM_CONF (where the file was read),
// SLURM_VERSION, HASH_VAL, MULTIPLE_SLURMD (how Debian built it) and the closing controller
// status lines (its host name and ping result). Everything else comes from conf.
func TestShowConfig_MatchesReference(t *testing.T) {
	want, err := os.ReadFile("testdata/showconfig/reference.txt")
	if err != nil {
		t.Fatal(err)
	}
	rt := conf.ShowConfigRuntime{LookupUID: func(name string) (uint32, bool) {
		// The recorded SlurmUser/SlurmdUser are root; other names are not in the golden.
		return 0, name == "root"
	}}
	sc := bufio.NewScanner(strings.NewReader(string(want)))
	afterBlank := false
	for sc.Scan() {
		l := sc.Text()
		if afterBlank {
			rt.ControllerStatus = append(rt.ControllerStatus, l)
			continue
		}
		if l == "" {
			afterBlank = true
			continue
		}
		if s, ok := strings.CutPrefix(l, "Configuration data as of "); ok {
			rt.DataAsOf = parseTime(t, s)
			continue
		}
		key, val, _ := strings.Cut(l, "=")
		key, val = strings.TrimSpace(key), strings.TrimPrefix(val, " ")
		switch key {
		case "BOOT_TIME":
			rt.BootTime = parseTime(t, val)
		case "NEXT_JOB_ID":
			n, _ := strconv.ParseUint(val, 10, 32)
			rt.NextJobID = uint32(n)
		case "SLURM_CONF":
			rt.ConfPath = val
		case "SLURM_VERSION":
			rt.Version = val
		case "HASH_VAL":
			rt.HashMatch = val == "Match"
		case "MULTIPLE_SLURMD":
			rt.MultipleSlurmd = val == "Yes"
		}
	}
	c, err := conf.Load("testdata/showconfig/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	got := c.ShowConfig(rt)
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("line %d:\n got: %q\nwant: %q", i+1, g, w)
			}
		}
	}
}

func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return tm
}
