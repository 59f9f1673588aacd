package conf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitLines_CommentsContinuationsEscapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []logicalLine
	}{
		{"comment", "A=1 # c\n#x\n", []logicalLine{{1, "A=1 "}}},
		{"escaped hash", "A=a\\#b\n", []logicalLine{{1, "A=a#b"}}},
		{"continuation", "A=1 \\\n  B=2\nC=3\n", []logicalLine{{1, "A=1   B=2"}, {3, "C=3"}}},
		{"even backslashes do not continue", "A=x\\\\\nB=1\n", []logicalLine{{1, "A=x\\"}, {2, "B=1"}}},
		{"crlf", "A=1\r\nB=2\r\n", []logicalLine{{1, "A=1\r"}, {2, "B=2\r"}}},
		{"continuation at eof", "A=1 \\", []logicalLine{{1, "A=1 "}}},
		{"blank lines keep numbering", "\n\n  \nA=1", []logicalLine{{4, "A=1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitLines([]byte(tt.in))
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("line %d: got %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestNextPair_SlurmRegexRules(t *testing.T) {
	tests := []struct {
		in, key, value, rest string
		ok                   bool
	}{
		{"KillWait=30", "KillWait", "30", "", true},
		{"  KillWait = 30 x", "KillWait", "30", " x", true},
		{`MailProg="/bin/true"`, "MailProg", "/bin/true", "", true},
		{`A="x y" B=1`, "A", "x y", " B=1", true},
		{`A="ab"c d`, "A", `"ab"c`, " d", true},
		{`A="open`, "A", `"open`, "", true},
		{"A=", "", "", "A=", false},
		{"A= B=1", "A", "B=1", "", true},
		{"A+=1", "A", "1", "", true},
		{`"A=1`, "", "", `"A=1`, false},
		{"A=1\r", "A", "1", "\r", true},
	}
	for _, tt := range tests {
		k, _, v, rest, ok := nextPair(tt.in)
		if ok != tt.ok || k != tt.key || v != tt.value || rest != tt.rest {
			t.Errorf("nextPair(%q) = %q %q %q %v, want %q %q %q %v", tt.in, k, v, rest, ok, tt.key, tt.value, tt.rest, tt.ok)
		}
	}
}

func TestParseUint_SlurmMessages(t *testing.T) {
	tests := []struct {
		kind  Kind
		value string
		want  uint64
		err   string
	}{
		{KindUint16, "30", 30, ""},
		{KindUint16, "0x10", 16, ""},
		{KindUint16, "010", 8, ""},
		{KindUint16, "UNLIMITED", Infinite16, ""},
		{KindUint16, "abc", 0, `K value "abc" is not a valid number`},
		{KindUint16, "70000", 0, "K value (70000) is greater than 65535"},
		{KindUint16, "-1", 0, "K value (-1) is less than zero"},
		{KindUint32, "2k", 2048, ""},
		{KindUint32, "abc", 0, "K value (abc) is not a valid number"},
		{KindUint32, "5000000000", 0, "K value (5000000000) is greater than 4294967295"},
		{KindUint64, "99999999999999999999999", 0, "K value (99999999999999999999999) is out of range"},
	}
	for _, tt := range tests {
		got, err := parseUint(tt.kind, "K", tt.value)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("parseUint(%q) error = %v, want %q", tt.value, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseUint(%q) = %d, %v; want %d", tt.value, got, err, tt.want)
		}
	}
}

func write(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const base = "ClusterName=Test\nSlurmctldHost=ctl(10.0.0.1)\n"

func TestLoad_NodesPartitionsDefaults(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "slurm.conf", base+`
NodeName=DEFAULT Sockets=2 CoresPerSocket=8 ThreadsPerCore=2 RealMemory=64000
NodeName=n[1-4] NodeAddr=10.1.0.[1-4] Port=[7001-7004] Feature=ib,avx2 Weight=10
NodeName=big CPUs=64 Gres=gpu:a100:4
NodeSet=ibnodes Feature=ib
PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP
PartitionName=batch Nodes=ibnodes Default=YES
PartitionName=gpu Nodes=big MaxTime=UNLIMITED DefaultTime=30 Shared=FORCE:2 Priority=5
DownNodes=n4 Reason="bad dimm"
`)
	c, err := Load(p)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if c.ClusterName != "test" {
		t.Errorf("ClusterName = %q, want lower-cased test", c.ClusterName)
	}
	if got := c.SlurmctldHosts; len(got) != 1 || got[0] != (ControllerHost{"ctl", "10.0.0.1"}) {
		t.Errorf("SlurmctldHosts = %v", got)
	}
	if len(c.Nodes) != 5 {
		t.Fatalf("nodes = %d, want 5", len(c.Nodes))
	}
	n3 := c.Node("n3")
	if n3.Addr != "10.1.0.3" || n3.Port != 7003 || n3.CPUs != 32 || n3.RealMemory != 64000 || n3.Weight != 10 ||
		n3.Hostname != "n3" || strings.Join(n3.Features, ",") != "ib,avx2" {
		t.Errorf("n3 = %+v", *n3)
	}
	big := c.Node("big")
	// CPUs=64 matches no product of Sockets=2, CoresPerSocket=8, ThreadsPerCore=2 from the
	// DEFAULT line: Slurm resets it to 32 and says so.
	if big.CPUs != 32 || big.Sockets != 2 || big.Gres != "gpu:a100:4" {
		t.Errorf("big = %+v", *big)
	}
	if len(c.Warnings) != 1 || !strings.HasSuffix(c.Warnings[0].Error(), ":6: NodeNames=big CPUs=64 match no Sockets, Sockets*CoresPerSocket or Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs.") {
		t.Errorf("warnings = %v", c.Warnings)
	}
	if len(c.Partitions) != 2 {
		t.Fatalf("partitions = %d", len(c.Partitions))
	}
	batch, gpu := c.Partitions[0], c.Partitions[1]
	if strings.Join(batch.Nodes, ",") != "n1,n2,n3,n4" || !batch.Default || batch.MaxTime != 1440 || batch.DefaultTime != NoValue32 {
		t.Errorf("batch = %+v", *batch)
	}
	if gpu.MaxTime != Infinite32 || gpu.DefaultTime != 30 || gpu.OverSubscribe != "FORCE:2" || gpu.PriorityTier != 5 || gpu.PriorityJobFactor != 5 {
		t.Errorf("gpu = %+v", *gpu)
	}
	if len(c.DownNodes) != 1 || c.DownNodes[0].Reason != "bad dimm" || c.DownNodes[0].State != "DOWN" {
		t.Errorf("DownNodes = %+v", c.DownNodes)
	}
	if c.KillWait != 30 || c.SlurmdTimeout != 300 || c.MaxArraySize != 1001 || c.SlurmctldPort != 6817 || c.SlurmdPort != 6818 {
		t.Errorf("defaults wrong: %+v", c)
	}
	if c.Orbit.MediateWidth != 100 {
		t.Errorf("MediateWidth default = %d, want 2×TreeWidth = 100", c.Orbit.MediateWidth)
	}
}

func TestLoad_DerivedCPUs(t *testing.T) {
	tests := []struct {
		line                          string
		cpus, sockets, cores, threads uint16
	}{
		{"NodeName=a", 1, 1, 1, 1},
		{"NodeName=a Sockets=2 CoresPerSocket=4 ThreadsPerCore=2", 16, 2, 4, 2},
		{"NodeName=a CPUs=16 CoresPerSocket=4", 16, 4, 4, 1},
		{"NodeName=a Boards=2 SocketsPerBoard=2 CoresPerSocket=4", 16, 4, 4, 1},
		{"NodeName=a Procs=8", 8, 8, 1, 1},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		c, err := Load(write(t, dir, "slurm.conf", base+tt.line+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		n := c.Nodes[0]
		if n.CPUs != tt.cpus || n.Sockets != tt.sockets || n.CoresPerSocket != tt.cores || n.ThreadsPerCore != tt.threads {
			t.Errorf("%s: got CPUs=%d Sockets=%d Cores=%d Threads=%d", tt.line, n.CPUs, n.Sockets, n.CoresPerSocket, n.ThreadsPerCore)
		}
	}
}

func TestLoad_IncludeGlobClusterNameAndLoop(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "nodes.d/a.conf", "NodeName=a[1-2]\n")
	write(t, dir, "nodes.d/b.conf", "NodeName=b1\n")
	write(t, dir, "test-parts.conf", "PartitionName=p Nodes=ALL\n")
	p := write(t, dir, "slurm.conf", base+"Include nodes.d/*.conf\nINCLUDE %c-parts.conf\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Nodes) != 3 || len(c.Partitions) != 1 || len(c.Partitions[0].Nodes) != 3 || len(c.Files) != 4 {
		t.Errorf("nodes=%d parts=%d files=%v", len(c.Nodes), len(c.Partitions), c.Files)
	}

	write(t, dir, "loop1.conf", "Include loop2.conf\n")
	write(t, dir, "loop2.conf", "Include loop1.conf\n")
	p = write(t, dir, "loop.conf", base+"Include loop1.conf\nNodeName=x\n")
	_, err = Load(p)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(es[0].Error(), "loop2.conf:1: Include loop: loop.conf -> loop1.conf -> loop2.conf -> loop1.conf") {
		t.Errorf("loop error = %v", err)
	}
}

func TestLoad_EveryErrorReported(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "slurm.conf", base+`Foo=bar
KillWait=abc
NodeName=n1 CPUs=4
NodeName=n1
PartitionName=p Nodes=n[1-2]
Include missing.conf
`)
	_, err := Load(p)
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("err = %v", err)
	}
	want := []string{
		p + `:3: Parsing error at unrecognized key: Foo`,
		p + `:4: KillWait value "abc" is not a valid number`,
		p + `:6: Duplicated NodeHostName n1 in config file (first defined at ` + p + `:5)`,
		p + `:7: Invalid node names in partition p: n2 not defined by any NodeName line`,
		p + `:8: "Include" failed: cannot read file ` + filepath.Join(dir, "missing.conf") + `: No such file or directory`,
	}
	if got := strings.Split(es.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestExpandNodePattern(t *testing.T) {
	if got := ExpandNodePattern("/var/spool/slurmd/%n/%h.%x", "n1", "host1"); got != "/var/spool/slurmd/n1/host1.%x" {
		t.Errorf("got %q", got)
	}
}

func TestLocate(t *testing.T) {
	t.Setenv("SLURM_CONF", "/env/slurm.conf")
	if Locate("/flag.conf") != "/flag.conf" || Locate("") != "/env/slurm.conf" {
		t.Error("flag or SLURM_CONF not honoured")
	}
	t.Setenv("SLURM_CONF", "")
	if Locate("") != DefaultPath {
		t.Error("default path not used")
	}
}
