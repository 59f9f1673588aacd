// Package live is the differential test of scontrol commands that need live jobs: `show
// step`, hold/release of job lists by name and updates of one array task. record.sh records cases.txt, in order, on the
// reference with three jobs of its own (two running one srun step each, one held); the test
// builds the same jobs on an Orbit cluster shaped like the reference and replays the cases in
// the same order. It needs no reference.
package live

import (
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// normalise masks what must differ between the two runs: timestamps (the runs happen at
// different moments), srun's pid, and, for a run by someone other than root (the recording's
// user), the uid. Job ids are written as {R}, {S}, {H} and {A} by record.sh and by the test.
func normalise(s, uid string) string {
	s = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`).ReplaceAllString(s, "TIME")
	s = regexp.MustCompile(`SrunHost:Pid=(\w+):[1-9]\d*`).ReplaceAllString(s, "SrunHost:Pid=$1:PID")
	if uid != "0" {
		s = strings.ReplaceAll(s, "UserId="+uid+" ", "UserId=0 ")
	}
	return s
}

type testCase struct{ name, args string }

func readCases(t *testing.T) []testCase {
	var out []testCase
	for _, f := range refcase.ReadTable(t, "cases.txt", 2) {
		out = append(out, testCase{f[0], f[1]})
	}
	return out
}

// TestLive_MatchesReference runs cases.txt on Orbit with jobs like the recording's.
func TestLive_MatchesReference(t *testing.T) {
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		NodeHostname: "vm", ControllerHost: "vm", ClusterName: "anchor",
		// Ids no count, CPU or task number of the cases can be taken for.
		ExtraConf: "FirstJobId=700001\n",
	})
	testbin.Path(t, "srun") // the job scripts' srun must be Orbit's, built beside sbatch
	r := refcase.Sbatch(t, c, "-J", "qst-run", "-n3", "-t", "10", "-o", "/dev/null", "--wrap", "srun -J qst-a -n2 sleep 300")
	s := refcase.Sbatch(t, c, "-J", "qst-one-{U}", "-n2", "-t", "10", "-o", "/dev/null", "--wrap", "srun -J qst-b -n1 sleep 300")
	h := refcase.Sbatch(t, c, "-J", "qst-held-{U}", "-H", "-o", "/dev/null", "--wrap", "true")
	a := refcase.Sbatch(t, c, "-J", "qst-arr", "-H", "--array=1-4", "-t", "10", "-o", "/dev/null", "--wrap", "true")
	ids := []string{strconv.Itoa(int(r)), strconv.Itoa(int(s)), strconv.Itoa(int(h)), strconv.Itoa(int(a))}
	t.Cleanup(func() { c.Run(t, "scancel", ids...) })
	c.WaitJob(t, r, states.JobRunning)
	c.WaitJob(t, s, states.JobRunning)
	deadline := time.Now().Add(refcase.WaitBound)
	for {
		out, _, _ := c.Run(t, "squeue", "-h", "-s", "-j", ids[0]+","+ids[1], "-o", "%i")
		if strings.Count(out, ".0\n") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the two steps never ran; squeue -s printed %q", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	toIDs := strings.NewReplacer("{R}", ids[0], "{S}", ids[1], "{H}", ids[2], "{A}", ids[3])
	idRE := regexp.MustCompile(`\d+`)
	fromIDs := func(s string) string {
		return idRE.ReplaceAllStringFunc(s, func(m string) string {
			switch m {
			case ids[0]:
				return "{R}"
			case ids[1]:
				return "{S}"
			case ids[2]:
				return "{H}"
			case ids[3]:
				return "{A}"
			}
			return m
		})
	}
	for _, tc := range readCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			cmd, args := "scontrol", toIDs.Replace(tc.args)
			if rest, ok := strings.CutPrefix(args, "squeue "); ok {
				cmd, args = "squeue", rest
			}
			out, errOut, rc := c.Run(t, cmd, refcase.ShellWords(args)...)
			read := func(ext string) string {
				b, err := os.ReadFile(filepath.Join("testdata", tc.name+"."+ext))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			for _, x := range []struct{ stream, got, want string }{
				{"out", normalise(fromIDs(out), u.Uid), normalise(read("out"), "0")},
				{"err", normalise(fromIDs(errOut), u.Uid), normalise(read("err"), "0")},
				{"rc", strconv.Itoa(rc), strings.TrimSpace(read("rc"))},
			} {
				if x.got != x.want {
					t.Errorf("%s %s: %s:\n got: %q\nwant: %q", cmd, args, x.stream, x.got, x.want)
				}
			}
		})
	}
}
