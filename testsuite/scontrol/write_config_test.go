package scontrol_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_WriteConfig: scontrol write config FILE writes the running configuration to
// FILE.<time> and says so on stdout; the file has Slurm's banner, section headers, one line
// for nodes alike and the partitions' lines with what differs from the defaults (the
// reference's layout, Slurm's test2.24).
func TestScontrol_WriteConfig(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2, InProcess: true,
		ExtraConf: "PartitionName=long Nodes=n2 MaxTime=2-00:00:00 PriorityTier=3 State=DOWN\n"})
	base := filepath.Join(t.TempDir(), "out.conf")
	out, errOut, code := c.Run(t, "scontrol", "write", "config", base)
	m := regexp.MustCompile(`^Slurm config saved to (` + regexp.QuoteMeta(base) + `\.\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\n$`).FindStringSubmatch(out)
	if code != 0 || errOut != "" || m == nil {
		t.Fatalf("scontrol write config: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	stamp := strings.TrimPrefix(m[1], base+".")
	for _, want := range []string{
		"########################################################\n#  Configuration file for Slurm - " + stamp +
			"  #\n########################################################\n#\n#\n#\n" +
			"################################################\n#                   CONTROL                    #\n",
		"\nClusterName=orbit-test\n",
		"#                    NODES                     #\n################################################\nNodeName=n[1-2] ",
		" Sockets=2 CoresPerSocket=1 ThreadsPerCore=1 ",
		"\nPartitionName=long MaxTime=2-00:00:00 MinNodes=0 Nodes=n2 PriorityTier=3 State=DOWN\nPartitionName=debug Default=YES MinNodes=0 Nodes=n[1-2] State=UP\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("written config lacks %q:\n%s", want, text)
		}
	}
	if _, errOut, code := c.Run(t, "scontrol", "write", "config", "a", "b"); code != 1 || errOut != "too many arguments for keyword:write\n" {
		t.Errorf("write config a b: exit %d, stderr %q", code, errOut)
	}
}
