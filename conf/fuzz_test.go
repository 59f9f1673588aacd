package conf

import (
	"os"
	"path/filepath"
	"testing"
)

var fuzzSeeds = []string{
	base + "NodeName=n[1-4] CPUs=4 State=UNKNOWN\nPartitionName=p Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
	"ControlMachine=a\nClusterName=x\nNodeName=DEFAULT Sockets=2\nNodeName=b Port=1-3\n",
	"ClusterName=x \\\n SlurmctldHost=a\n# c\nMailProg=\"/bin/true\" \\# x\n",
	"Include *.conf\nInclude %c.conf\nPartitionName=p Nodes=nothere Shared=YES:0\n",
	"KillWait=0x10\nTreeWidth=70000\nUsePAM=maybe\nFastSchedule=2\n\"A=1\nA=\n",
	"NodeName=n[1-2] NodeAddr=a,b,c Port=[1-2]\nDownNodes=n9\nNodeSet=s Feature=f\nFrontendName=DEFAULT FrontendAddr=x\n",
	"SlurmctldHost=a(b\nSlurmctldHost=a(b)c\nSlurmctldPort=7-6\nMediateWidth=5\nPowerCorridor=9,1\n",
	"RuntimePredictorParameters=clusters=0,alpha=x,elbow\nTopologyAllocator=spiral\nOrbitStore=ftp://x\n",
}

// FuzzParseSlurmConf checks that no slurm.conf text makes the parser panic or hang, and that a
// config accepted once is accepted again (parsing is deterministic).
func FuzzParseSlurmConf(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		p := filepath.Join(dir, "slurm.conf")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c1, err1 := Load(p)
		c2, err2 := Load(p)
		if (err1 == nil) != (err2 == nil) || c1 == nil || c2 == nil || len(c1.Nodes) != len(c2.Nodes) {
			t.Fatalf("non-deterministic: %v / %v", err1, err2)
		}
	})
}

func fuzzCompanion(f *testing.F, seeds []string, load func(string) error) {
	for _, s := range seeds {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		p := filepath.Join(dir, "x.conf")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = load(p)
	})
}

// FuzzParseGresConf checks gres.conf parsing never panics.
func FuzzParseGresConf(f *testing.F) {
	fuzzCompanion(f, []string{
		"AutoDetect=nvml\nName=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15\n",
		"NodeName=n[1-2] Name=gpu Count=4k Flags=CountOnly,bogus\nNodeName=x AutoDetect=off\nName=\n",
	}, func(p string) error { _, err := LoadGres(p); return err })
}

// FuzzParseTopologyConf checks topology.conf parsing never panics.
func FuzzParseTopologyConf(f *testing.F) {
	fuzzCompanion(f, []string{
		"SwitchName=s0 Nodes=n[1-4] LinkSpeed=10\nSwitchName=top Switches=s[0-1]\n",
		"SwitchName=a\nSwitchName=b Nodes=x Switches=y\nSwitchName=b Nodes=z\n",
	}, func(p string) error { _, err := LoadTopology(p); return err })
}

// FuzzParseCgroupConf checks cgroup.conf parsing never panics.
func FuzzParseCgroupConf(f *testing.F) {
	fuzzCompanion(f, []string{
		"CgroupAutomount=yes\nConstrainCores=yes\nConstrainRAMSpace=yes\nAllowedRAMSpace=98.5\n",
		"CgroupPlugin=cgroup/v9\nAllowedSwapSpace=x\nFoo=1\n",
	}, func(p string) error { _, err := LoadCgroup(p); return err })
}
