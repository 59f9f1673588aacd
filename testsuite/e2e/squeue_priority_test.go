package e2e_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSqueuePriorityPartitions: a job submitted to several partitions keeps them in the
// order they are tried (higher PriorityTier first), squeue -p finds it by any of them, and
// squeue -P lists it once per partition, sorted by the partition's tier (Slurm's test5.10,
// the reference's answers).
func TestSqueuePriorityPartitions(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, InProcess: true,
		ExtraConf: "PartitionName=tp1 Nodes=n[1-2] PriorityTier=1\nPartitionName=tp2 Nodes=n[1-2] PriorityTier=2\n"})
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-N1", "-t1", "--begin=now+1hour", "-ptp1,tp2", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-h", "-o", "%P", "-j", id}, "tp2,tp1\n"},
		{[]string{"-h", "-o", "%i", "-p", "tp1"}, id + "\n"},
		{[]string{"-P", "--sort=p,i", "-h", "-O", "partition", "-j", id, "--state=PD"}, "tp1                 \ntp2                 \n"},
		{[]string{"-P", "--sort=-p", "-h", "-o", "%P %r", "-j", id}, "tp2 BeginTime\ntp1 BeginTime\n"},
		{[]string{"-P", "-h", "-o", "%P", "-p", "tp1"}, "tp1\n"},
	} {
		out, errOut, code := c.Run(t, "squeue", tc.args...)
		if code != 0 || out != tc.want {
			t.Errorf("squeue %q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
