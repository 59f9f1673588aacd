package conf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cgroupDefaults is the reference's section with no cgroup.conf (recorded on Slurm 22.05
// with ProctrackType unset, whose default is proctrack/cgroup).
const cgroupDefaults = `
Cgroup Support Configuration:
AllowedKmemSpace        = (null)
AllowedRAMSpace         = 100.0%
AllowedSwapSpace        = 0.0%
CgroupAutomount         = no
CgroupMountpoint        = /sys/fs/cgroup
CgroupPlugin            = (null)
ConstrainCores          = no
ConstrainDevices        = no
ConstrainKmemSpace      = no
ConstrainRAMSpace       = no
ConstrainSwapSpace      = no
IgnoreSystemd           = no
IgnoreSystemdOnFailure  = no
MaxKmemPercent          = 100.0%
MaxRAMPercent           = 100.0%
MaxSwapPercent          = 100.0%
MemorySwappiness        = (null)
MinKmemSpace            = 30 MB
MinRAMSpace             = 30 MB
`

// TestShowConfig_CgroupSection: the section scontrol show config adds where a cgroup plugin
// is configured, with cgroup.conf's values as the reference printed them, and the defaults
// of the plugin keys the reference prints when they are unset.
func TestShowConfig_CgroupSection(t *testing.T) {
	show := func(text string, cg *CgroupConfig) string {
		c, err := Parse("slurm.conf", []byte(base+text))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		c.Cgroup = cg
		return c.ShowConfig(ShowConfigRuntime{LookupUID: func(string) (uint32, bool) { return 0, true }})
	}
	out := show("", nil)
	for _, want := range []string{"ProctrackType           = proctrack/cgroup\n", "JobCompType             = jobcomp/none\n",
		"MailProg                = /bin/mail\n", "MpiDefault              = none\n", "SlurmdDebug             = info\n",
		"SwitchType              = switch/none\n", cgroupDefaults + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("defaults: no %q in\n%s", want, out)
		}
	}
	if out := show("ProctrackType=proctrack/linuxproc\nTaskPlugin=task/affinity\n", nil); strings.Contains(out, "Cgroup Support") {
		t.Errorf("a cgroup section without cgroup plugins:\n%s", out)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "cgroup.conf")
	body := "ConstrainCores=yes\nAllowedRAMSpace=95.5\nMemorySwappiness=150\nCgroupMountpoint=/sys/fs/cgroup/\n" +
		"CgroupPlugin=cgroup/v2\nMinRAMSpace=64\nAllowedKmemSpace=1000\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cg, err := LoadCgroup(p)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("AllowedKmemSpace        = (null)", "AllowedKmemSpace        = 1000 Bytes",
		"AllowedRAMSpace         = 100.0%", "AllowedRAMSpace         = 95.5%",
		"CgroupPlugin            = (null)", "CgroupPlugin            = cgroup/v2",
		"ConstrainCores          = no", "ConstrainCores          = yes",
		"MemorySwappiness        = (null)", "MemorySwappiness        = 100",
		"MinRAMSpace             = 30 MB", "MinRAMSpace             = 64 MB").Replace(cgroupDefaults)
	if out := show("TaskPlugin=task/cgroup,task/affinity\nProctrackType=proctrack/linuxproc\n", cg); !strings.Contains(out, want) {
		t.Errorf("with cgroup.conf: want\n%s\nin\n%s", want, out)
	}
}
