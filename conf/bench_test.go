package conf

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse20kNodesInclude loads a slurm.conf describing 20,000 nodes spread over 20
// Include files of 1,000 node lines each, plus partitions over all of them.
func BenchmarkParse20kNodesInclude(b *testing.B) {
	dir := b.TempDir()
	var main strings.Builder
	main.WriteString(base + "NodeName=DEFAULT Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 RealMemory=256000 State=UNKNOWN\n")
	for f := 0; f < 20; f++ {
		var inc strings.Builder
		for i := 0; i < 1000; i++ {
			n := f*1000 + i
			fmt.Fprintf(&inc, "NodeName=cn%05d NodeAddr=10.%d.%d.%d Feature=rack%d Weight=%d\n", n, n>>16, (n>>8)&255, n&255, f, 1+n%7)
		}
		write(b, dir, fmt.Sprintf("nodes.d/rack%02d.conf", f), inc.String())
	}
	main.WriteString("Include nodes.d/*.conf\n")
	main.WriteString("PartitionName=all Nodes=ALL Default=YES MaxTime=2-00:00:00\n")
	main.WriteString("PartitionName=half Nodes=cn[00000-09999] MaxTime=12:00:00\n")
	p := write(b, dir, "slurm.conf", main.String())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := Load(p)
		if err != nil || len(c.Nodes) != 20000 {
			b.Fatalf("Load: %v (%d nodes)", err, len(c.Nodes))
		}
	}
	_ = filepath.Join
}

// BenchmarkParse20kNodesHostlist loads the same 20,000 nodes written the way large sites
// write them: one hostlist line per rack (with a hostlist NodeAddr), one Include file per
// rack, a GPU rack with its own hardware line, a node set, and several partitions over
// ranges, node sets and ALL.
func BenchmarkParse20kNodesHostlist(b *testing.B) {
	dir := b.TempDir()
	var main strings.Builder
	main.WriteString(base + "NodeName=DEFAULT Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 RealMemory=256000 State=UNKNOWN\n")
	for r := 0; r < 20; r++ {
		lo, hi := r*1000, r*1000+999
		line := fmt.Sprintf("NodeName=cn[%05d-%05d] NodeAddr=10.%d.[%d-%d].[0-249] Feature=rack%02d,ib Weight=%d\n",
			lo, hi, r, 0, 3, r, 1+r%3)
		if r == 19 {
			line = fmt.Sprintf("NodeName=cn[%05d-%05d] NodeAddr=10.%d.[%d-%d].[0-249] Feature=rack%02d,gpu Gres=gpu:a100:4 RealMemory=512000\n",
				lo, hi, r, 0, 3, r)
		}
		write(b, dir, fmt.Sprintf("racks/rack%02d.conf", r), "# rack "+fmt.Sprint(r)+"\n"+line)
	}
	main.WriteString("Include racks/*.conf\n")
	main.WriteString("NodeSet=gpunodes Feature=gpu\n")
	main.WriteString("PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP\n")
	main.WriteString("PartitionName=all Nodes=ALL Default=YES\n")
	main.WriteString("PartitionName=cpu Nodes=cn[00000-18999] MaxTime=7-00:00:00\n")
	main.WriteString("PartitionName=gpu Nodes=gpunodes OverSubscribe=FORCE:2\n")
	main.WriteString("PartitionName=debug Nodes=cn[00000-00031],cn[19000-19003] MaxTime=30:00 PriorityTier=10\n")
	main.WriteString("PartitionName=long Nodes=cn[10000-18999],cn[00000-00999] MaxTime=UNLIMITED\n")
	p := write(b, dir, "slurm.conf", main.String())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := Load(p)
		if err != nil || len(c.Nodes) != 20000 || len(c.Partitions) != 5 {
			b.Fatalf("Load: %v (%d nodes)", err, len(c.Nodes))
		}
	}
}
