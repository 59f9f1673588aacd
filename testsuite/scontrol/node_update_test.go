package scontrol_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// nodeFields is what node_update.json records of `scontrol show node`: the fields scontrol
// update NodeName= changes besides the state.
var nodeFields = regexp.MustCompile(`(?m)\b(?:AvailableFeatures|ActiveFeatures|Weight|Comment|Extra)=[^\n]*?(?: \w+=|$)`)

func showNodeFields(t *testing.T, c *cluster.Cluster, name string) string {
	t.Helper()
	out, errOut, code := c.Run(t, "scontrol", "show", "node", name)
	if code != 0 {
		t.Fatalf("show node %s: exit %d: %s", name, code, errOut)
	}
	var f []string
	for _, m := range nodeFields.FindAllString(out, -1) {
		if i := strings.LastIndexByte(m, ' '); i > 0 && strings.HasSuffix(m, "=") {
			m = m[:i] // the next field's name the match ran into
		}
		f = append(f, strings.TrimSpace(m))
	}
	return strings.Join(f, " ")
}

// TestScontrol_UpdateNodeFeatures replays testdata/node_update.json, recorded on the
// reference (record_node_update.sh): scontrol update NodeName= with AvailableFeatures,
// ActiveFeatures, Features, Weight, Comment and Extra, valid and refused values, then
// scontrol reconfigure, which restores slurm.conf's features and weights and keeps comments.
// Every case's output and exit code and the node's fields afterwards must be the
// reference's. Changes also steer jobs: a --constraint names a feature set at run time, and
// the lowest weight is chosen first.
func TestScontrol_UpdateNodeFeatures(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "node_update.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Cases []struct {
			Args []string
			Out  *string
			Err  string
			RC   int
			Show string
		}
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 2})
	for _, k := range rec.Cases {
		node := "n1"
		for _, a := range k.Args {
			if v, ok := strings.CutPrefix(a, "NodeName="); ok {
				node = v
			}
		}
		line := strings.Join(k.Args, " ")
		if k.Out != nil { // a case to run; the others only look at a node
			out, errOut, code := c.Run(t, "scontrol", k.Args...)
			if out != *k.Out || errOut != k.Err || code != k.RC {
				t.Errorf("`scontrol %s`: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
					line, code, out, errOut, k.RC, *k.Out, k.Err)
			}
		} else {
			node = k.Args[len(k.Args)-1]
		}
		if got := showNodeFields(t, c, node); got != k.Show {
			t.Errorf("after `scontrol %s`: show node %s\n%s\nwant\n%s", line, node, got, k.Show)
		}
	}

	// Features and weights set at run time steer jobs, and survive a controller restart.
	for _, args := range [][]string{{"NodeName=n3", "AvailableFeatures=fast"}, {"NodeName=n2", "Weight=0"}} {
		if _, errOut, code := c.Run(t, "scontrol", append([]string{"update"}, args...)...); code != 0 {
			t.Fatalf("update %v: exit %d: %s", args, code, errOut)
		}
	}
	c.RestartController(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-C", "fast"}, "n3\n"},
		{nil, "n2\n"},
	} {
		out, errOut, code := c.Run(t, "srun", append(tc.args, "-n1", "printenv", "SLURMD_NODENAME")...)
		if code != 0 || out != tc.want {
			t.Errorf("srun %v after the updates and a restart: %q, %q, exit %d; want %q", tc.args, out, errOut, code, tc.want)
		}
	}
}
