package scontrol_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_CreateDeletePartition runs scontrol create and delete of partitions, valid
// and not, in order, against what the reference printed for each (stdout is empty in every
// case), and checks the partition list after (Slurm's test4.14 relies on a partition being
// created even when its nodes are refused).
func TestScontrol_CreateDeletePartition(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, k := range []struct {
		args string
		err  string
		rc   int
	}{
		{"create", "too few arguments for create keyword\n", 1},
		{"delete", "too few arguments for delete keyword\n", 1},
		{"cre", "too few arguments for cre keyword\n", 1},
		{"create nodes=n1", "scontrol: error: Invalid creation entity: nodes=n1\n", 1},
		{"create partitionname=p5 bogus=1", "scontrol: error: Update of this parameter is not supported: bogus=1\n\nscontrol: error: Request aborted\n", 1},
		{"create partitionname=default", "scontrol: error: PartitionName cannot be \"DEFAULT\".\n", 1},
		{"create partitionname=", "", 0},
		{"create partitionname=p3 nodes=n1 priority=3 preemptmode=cancel", "", 0},
		{"create partitionname=p3 nodes=n1", "Error creating the partition: Invalid partition name specified\n", 1},
		// Slurm creates the partition all the same, with the nodes that are nodes.
		{"create partitionname=p4 nodes=n9", "Error creating the partition: Invalid node name specified\n", 1},
		{"create partitionname=p8 nodes=n[1,9] maxtime=5", "Error creating the partition: Invalid node name specified\n", 1},
		{"create partition=p6", "", 0},
		{"delete partitionname=p7", "delete_partition partitionname=p7: Invalid partition name specified\n", 1},
		{"delete partition=p6", "", 0},
		{"delete partitionname=p6", "delete_partition partitionname=p6: Invalid partition name specified\n", 1},
		{"delete partitionname=", "", 0},
		{"delete p3", "scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'\n", 1},
		{"delete a b c", "scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'\n", 1},
		{"delete bogus=1", "Invalid deletion entity: bogus=1\n", 1},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != "" || errOut != k.err || code != k.rc {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", k.args, code, out, errOut, k.rc, k.err)
		}
	}
	if o, _, _ := c.Run(t, "sinfo", "-h", "-o", "%P %D %N %l"); o != "debug* 1 n1 infinite\np3 1 n1 infinite\np4 0  infinite\np8 1 n1 5:00\n" {
		t.Errorf("partitions after the cases: %q", o)
	}
}
