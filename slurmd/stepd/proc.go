package stepd

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// procInfo is what /proc/<pid>/stat says about a process.
type procInfo struct {
	pid   int
	state byte // R, S, D, Z, ...
	ppid  int
	pgid  int
	sid   int
	start uint64 // start time in clock ticks since boot: with pid, identifies a process
}

// readProc reads /proc/<pid>/stat. The command name may hold spaces and parentheses, so the
// fields are counted from the last ')'.
//
// The file is read with plain system calls: a walk reads one per process on the machine, and
// os.ReadFile's poller registration and buffer growth cost more than the read itself.
func readProc(pid int) (procInfo, error) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return procInfo{}, err
	}
	defer unix.Close(fd)
	var buf [1024]byte // the name is at most 64 bytes: the whole line fits
	n := 0
	for n < len(buf) {
		k, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return procInfo{}, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return parseStat(pid, string(buf[:n]))
}

// parseStat parses the text of /proc/<pid>/stat.
func parseStat(pid int, s string) (procInfo, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procInfo{}, fmt.Errorf("stepd: malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	// Fields after the name: state(3) ppid(4) pgrp(5) session(6) ... starttime(22).
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, fmt.Errorf("stepd: malformed /proc/%d/stat", pid)
	}
	p := procInfo{pid: pid, state: f[0][0]}
	var errs [4]error
	p.ppid, errs[0] = strconv.Atoi(f[1])
	p.pgid, errs[1] = strconv.Atoi(f[2])
	p.sid, errs[2] = strconv.Atoi(f[3])
	p.start, errs[3] = strconv.ParseUint(f[19], 10, 64)
	for _, e := range errs {
		if e != nil {
			return procInfo{}, fmt.Errorf("stepd: malformed /proc/%d/stat: %v", pid, e)
		}
	}
	return p, nil
}

// allProcs lists every process /proc shows; processes that vanish while listing are skipped.
func allProcs() []procInfo {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	out := make([]procInfo, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		if p, err := readProc(pid); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// procStart is the start time of pid, or 0 when it cannot be read.
func procStart(pid int) uint64 {
	p, err := readProc(pid)
	if err != nil {
		return 0
	}
	return p.start
}
