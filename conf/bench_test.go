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
