package json

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// TestJSON_MatchesReference holds the jobs record.sh submitted (held, running, completed)
// on an Orbit cluster shaped like the reference's node, and compares squeue's and sinfo's
// --json and --yaml output with the reference's after the same normalisation.
func TestJSON_MatchesReference(t *testing.T) {
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		ClusterName: "anchor", MinJobAge: 300,
	})
	held := refcase.Sbatch(t, c, "--job-name=zzjson_held", "--hold", "-n", "2", "--mem=100", "-t", "1:00:00",
		`--comment=a/b: "c" #d`, "--wrap", "true")
	run := refcase.Sbatch(t, c, "--job-name=zzjson_run", "-t", "10", "-o", "/dev/null", "--wrap", "sleep 300")
	done := refcase.Sbatch(t, c, "--job-name=zzjson_done", "-o", "/dev/null", "--wrap", "true")
	t.Cleanup(func() {
		c.Run(t, "scancel", strconv.Itoa(int(held)), strconv.Itoa(int(run)))
	})
	c.WaitJob(t, run, states.JobRunning)
	c.WaitJob(t, done, states.JobComplete)
	ids := []string{strconv.Itoa(int(held)), strconv.Itoa(int(run)), strconv.Itoa(int(done))}

	for _, tc := range []struct {
		golden, cmd, opt string
		jobs             bool
	}{
		{"squeue.json", "squeue", "--json", true},
		{"squeue.yaml", "squeue", "--yaml", true},
		{"sinfo.json", "sinfo", "--json", false},
		{"sinfo.yaml", "sinfo", "--yaml", false},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, errOut, code := c.Run(t, tc.cmd, tc.opt)
			if code != 0 || errOut != "" {
				t.Fatalf("%s %s: exit %d, stderr %q", tc.cmd, tc.opt, code, errOut)
			}
			if tc.jobs {
				out = KeepJobs(out, ids, strings.HasSuffix(tc.golden, ".yaml"))
			}
			got := Normalise(out)
			want, err := os.ReadFile(filepath.Join("testdata", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s %s differs from the reference (after normalisation):\n%s", tc.cmd, tc.opt, diff(string(want), got))
			}
		})
	}
}

// diff lists the lines that differ, with their line numbers, as want/got pairs.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := max(len(w), len(g))
	shown := 0
	for i := 0; i < n && shown < 40; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString(strconv.Itoa(i+1) + ": want " + strconv.Quote(wl) + "\n   got  " + strconv.Quote(gl) + "\n")
			shown++
		}
	}
	return b.String()
}
