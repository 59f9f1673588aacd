package node

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// hardware is the machine as slurmd detects it (Slurm's actual_* figures, which scontrol
// show slurmd prints whatever slurm.conf says): CPUs, and how they group into sockets,
// cores and threads from /sys's topology; memory from sysinfo; TmpFS's size from statfs.
type hardware struct {
	cpus, boards, sockets, cores, threads uint32 // cores per socket, threads per core
	realMemory                            uint64 // MiB
	tmpDisk                               uint32 // MiB
}

// detectHardware reads the machine; tmpFS is slurm.conf's TmpFS ("" = /tmp).
func detectHardware(tmpFS string) hardware {
	h := hardware{cpus: uint32(runtime.NumCPU()), boards: 1, sockets: 1, threads: 1}
	sockets := map[string]bool{}
	cores := map[string]bool{}
	online, _ := filepath.Glob("/sys/devices/system/cpu/cpu[0-9]*/topology")
	for _, dir := range online {
		pkg, err1 := os.ReadFile(filepath.Join(dir, "physical_package_id"))
		core, err2 := os.ReadFile(filepath.Join(dir, "core_id"))
		if err1 != nil || err2 != nil {
			continue
		}
		p := strings.TrimSpace(string(pkg))
		sockets[p] = true
		cores[p+"/"+strings.TrimSpace(string(core))] = true
	}
	if len(sockets) > 0 && len(cores) > 0 {
		h.cpus = uint32(len(online))
		h.sockets = uint32(len(sockets))
		h.cores = uint32(len(cores) / len(sockets))
		h.threads = max(uint32(len(online)/len(cores)), 1)
	} else {
		h.cores = h.cpus
	}
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		h.realMemory = uint64(si.Totalram) * uint64(si.Unit) / (1 << 20)
	}
	if tmpFS == "" {
		tmpFS = "/tmp"
	}
	var fs unix.Statfs_t
	if unix.Statfs(tmpFS, &fs) == nil {
		h.tmpDisk = uint32(fs.Blocks * uint64(fs.Bsize) / (1 << 20))
	}
	return h
}
