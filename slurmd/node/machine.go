package node

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// machine returns the Arch and OS a node reports at registration, as Slurm's slurmd does
// (slurmd.c, _fill_registration_msg): uname's machine ("x86_64") and "sysname release
// version" ("Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1"), each replaced by
// SLURM_ARCH or SLURM_OS when slurmd's environment sets it. Both are "" when uname fails.
func machine() (arch, osName string) {
	var u unix.Utsname
	if err := unix.Uname(&u); err == nil {
		arch = unix.ByteSliceToString(u.Machine[:])
		osName = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:]) + " " +
			unix.ByteSliceToString(u.Version[:])
	}
	if v, ok := os.LookupEnv("SLURM_ARCH"); ok {
		arch = v
	}
	if v, ok := os.LookupEnv("SLURM_OS"); ok {
		osName = v
	}
	return arch, osName
}

// machineOnce is machine read once per slurmd: neither changes while it runs, and an
// emulating slurmd registers thousands of nodes.
var machineOnce = sync.OnceValues(machine)
