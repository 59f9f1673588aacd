// Package testonly is the differential test of --test-only (issue 5): sbatch and srun ask
// the controller when and where a job would start and submit nothing; salloc refuses the
// option, as Slurm 22.05's does. record.sh records cases.txt on the reference; the test
// replays it on an Orbit cluster shaped like the reference and needs no reference.
package testonly

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// The job id a test uses up and the start time depend on the cluster's history and on
// other people's jobs on the shared reference (Slurm adds the pending jobs ahead to the
// estimate), so both are masked; everything else (CPUs, nodes, partition, errors, exit
// codes) is compared byte for byte.
var willRunLine = regexp.MustCompile(`Job \d+ to start at \S+ using`)

func normalise(s string) string {
	return willRunLine.ReplaceAllString(s, "Job N to start at TIME using")
}

type testCase struct{ name, cmd, args string }

func readCases(t *testing.T) []testCase {
	var out []testCase
	for _, f := range refcase.ReadTable(t, "cases.txt", 3) {
		out = append(out, testCase{f[0], f[1], f[2]})
	}
	return out
}

// TestTestOnly_MatchesReference runs every case of cases.txt on Orbit and compares stdout,
// stderr and the exit status with the reference's, then checks that no job was created.
func TestTestOnly_MatchesReference(t *testing.T) {
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		NodeHostname: "vm", ControllerHost: "vm", ClusterName: "anchor",
	})
	for _, tc := range readCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			prefix := strings.ToUpper(tc.cmd) + "_"
			out, errOut, rc := refcase.Run(t, c, tc.cmd, prefix, nil, refcase.ShellWords(tc.args)...)
			for _, s := range []struct{ stream, got, want string }{
				{"out", normalise(out), normalise(refcase.ReadGolden(t, tc.name+".out"))},
				{"err", normalise(errOut), normalise(refcase.ReadGolden(t, tc.name+".err"))},
				{"rc", strconv.Itoa(rc), strings.TrimSpace(refcase.ReadGolden(t, tc.name+".rc"))},
			} {
				if s.got != s.want {
					t.Errorf("%s %s %s:\n got: %q\nwant: %q", tc.cmd, tc.args, s.stream, s.got, s.want)
				}
			}
		})
	}
	out, errOut, rc := c.Run(t, "squeue", "-h", "-t", "all", "-o", "%i %j")
	if rc != 0 || strings.TrimSpace(out) != "" {
		t.Errorf("after the tests squeue lists jobs (rc %d): %q %q", rc, out, errOut)
	}
}
