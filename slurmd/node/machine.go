package node

import (
	"os"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
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

// hostLoad is the machine's load a node reports at registration and in ping replies, as
// Slurm's slurmd reads it (sysinfo: the 5-minute load average in hundredths, free RAM in
// MiB). One reading serves every call within a second: the nodes an emulating slurmd
// answers for in one sweep report the same figures, so their ping replies merge in the
// broadcast tree instead of making one result each.
func hostLoad() wire.HostLoad {
	loadCache.Lock()
	defer loadCache.Unlock()
	now := time.Now()
	if now.Sub(loadCache.at) < time.Second {
		return loadCache.load
	}
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return wire.HostLoad{}
	}
	loadCache.at = now
	loadCache.load = wire.HostLoad{
		Known:   true,
		CPULoad: uint32(float64(si.Loads[1]) / float64(1<<unix.SI_LOAD_SHIFT) * 100),
		FreeMem: uint64(si.Freeram) * uint64(si.Unit) / (1 << 20),
	}
	return loadCache.load
}

var loadCache struct {
	sync.Mutex
	at   time.Time
	load wire.HostLoad
}
