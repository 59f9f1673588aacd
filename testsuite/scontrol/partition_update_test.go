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

// partFields is what partition_update.json records of `scontrol show partition` after
// each case: the fields scontrol update PartitionName= changes.
var partFields = regexp.MustCompile(`\b(?:PreemptMode|PriorityTier|PriorityJobFactor|GraceTime|Default|MaxNodes|MinNodes|DefaultTime|OverSubscribe|MaxTime|State)=\S*`)

func showPartFields(t *testing.T, c *cluster.Cluster, name string) string {
	t.Helper()
	out, errOut, code := c.Run(t, "scontrol", "show", "partition", name)
	if code != 0 {
		t.Fatalf("show partition %s: exit %d: %s", name, code, errOut)
	}
	return strings.Join(partFields.FindAllString(out, -1), " ")
}

// TestScontrol_UpdatePartition replays testdata/partition_update.json, recorded on the
// reference: scontrol update PartitionName= with PreemptMode, Priority, PriorityTier,
// PriorityJobFactor, GraceTime, MaxNodes, MinNodes, DefaultTime, OverSubscribe, Default,
// MaxTime and State, valid and refused values, in order on one partition. Every case's
// stdout, stderr and exit code and the partition's fields afterwards must be the
// reference's (a refused value changes nothing). The overrides then survive a controller
// restart, and Default=YES moves the default partition, also across a restart.
func TestScontrol_UpdatePartition(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "partition_update.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Cases []struct {
			Args           []string
			Out, Err, Show string
			RC             int
		}
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	// qpu as the recording's scontrol create made it (MinNodes=1 is its default there).
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		Partitions: "PartitionName=qpu Nodes=ALL State=DOWN MinNodes=1\n"})
	last := ""
	for _, k := range rec.Cases {
		out, errOut, code := c.Run(t, "scontrol", k.Args...)
		line := strings.Join(k.Args, " ")
		if out != k.Out || errOut != k.Err || code != k.RC {
			t.Errorf("`scontrol %s`: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
				line, code, out, errOut, k.RC, k.Out, k.Err)
		}
		if got := showPartFields(t, c, "qpu"); got != k.Show {
			t.Errorf("after `scontrol %s`: show partition qpu\n%s\nwant\n%s", line, got, k.Show)
		}
		last = k.Show
	}
	if t.Failed() {
		return
	}

	// The overrides are durable.
	c.RestartController(t)
	if got := showPartFields(t, c, "qpu"); got != last {
		t.Errorf("after a controller restart: show partition qpu\n%s\nwant\n%s", got, last)
	}

	// Default=YES takes the default from debug; jobs without -p then go to qpu (with limits
	// such a job fits).
	if _, errOut, code := c.Run(t, "scontrol", "update", "PartitionName=qpu", "Default=YES", "MinNodes=0", "DefaultTime=5"); code != 0 {
		t.Fatalf("Default=YES: exit %d: %s", code, errOut)
	}
	checkDefault := func(when, want string) {
		t.Helper()
		for _, p := range []string{"debug", "qpu"} {
			got := regexp.MustCompile(`\bDefault=\w+`).FindString(showPartFields(t, c, p))
			if w := map[bool]string{true: "Default=YES", false: "Default=NO"}[p == want]; got != w {
				t.Errorf("%s: partition %s has %s, want %s", when, p, got, w)
			}
		}
	}
	checkDefault("after Default=YES on qpu", "qpu")
	c.RestartController(t)
	checkDefault("after Default=YES on qpu and a restart", "qpu")
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-H", "-o", "/dev/null", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch without -p: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	t.Cleanup(func() { c.Run(t, "scancel", id) })
	if part, _, _ := c.Run(t, "squeue", "-h", "-j", id, "-o", "%P"); strings.TrimSpace(part) != "qpu" {
		t.Errorf("a job without -p went to partition %q, want qpu", strings.TrimSpace(part))
	}
	if _, errOut, code := c.Run(t, "scontrol", "update", "PartitionName=debug", "Default=Y"); code != 0 {
		t.Fatalf("Default=Y on debug: exit %d: %s", code, errOut)
	}
	checkDefault("after Default=Y on debug", "debug")

	// Options Orbit cannot change yet are refused by name.
	_, errOut, code = c.Run(t, "scontrol", "update", "PartitionName=qpu", "TRESBillingWeights=CPU=1")
	if code != 1 || !strings.Contains(errOut, "TRESBillingWeights") {
		t.Errorf("TRESBillingWeights=: exit %d, %q", code, errOut)
	}
}
