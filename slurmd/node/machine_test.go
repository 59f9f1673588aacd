package node

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMachine: Arch and OS are uname's machine and "sysname release version", as Slurm's
// slurmd reports them, and SLURM_ARCH / SLURM_OS replace them.
func TestMachine(t *testing.T) {
	arch, osName := machine()
	if out, err := exec.Command("uname", "-m").Output(); err == nil && arch != strings.TrimSpace(string(out)) {
		t.Errorf("arch %q, uname -m says %q", arch, strings.TrimSpace(string(out)))
	}
	if out, err := exec.Command("uname", "-s", "-r", "-v").Output(); err == nil && osName != strings.TrimSpace(string(out)) {
		t.Errorf("os %q, uname -srv says %q", osName, strings.TrimSpace(string(out)))
	}
	t.Setenv("SLURM_ARCH", "riscv64")
	t.Setenv("SLURM_OS", "Plan 9")
	if arch, osName := machine(); arch != "riscv64" || osName != "Plan 9" {
		t.Errorf("with SLURM_ARCH/SLURM_OS: %q %q", arch, osName)
	}
}
