package rlimits

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"unsafe"
)

// Getter reads one resource's soft and hard limit.
type Getter func(resource int) (cur, max uint64, err error)

// Env is what sbatch and srun add to the environment they send (Slurm's _set_rlimit_env):
// SLURM_RLIMIT_<NAME>=<soft limit> for every limit in s, in Limits order, the value with a
// "U" in front when user is set (the user gave --propagate, so the node reports a limit it
// cannot set as an error rather than quietly). An unlimited limit is RLIM_INFINITY as an
// unsigned long, 18446744073709551615. A limit that cannot be read is left out and its
// error returned (Slurm's "getrlimit (RLIMIT_X): ..." line), the others are still exported.
func Env(s Set, user bool, get Getter) ([]string, []error) {
	var env []string
	var errs []error
	for i, l := range Limits {
		if !s.Has(i) {
			continue
		}
		cur, _, err := get(l.Resource)
		if err != nil {
			errs = append(errs, fmt.Errorf("getrlimit (RLIMIT_%s): %v", l.Name, err))
			continue
		}
		v := strconv.FormatUint(cur, 10)
		if user {
			v = "U" + v
		}
		env = append(env, "SLURM_RLIMIT_"+l.Name+"="+v)
	}
	return env, errs
}

// nofile is RLIMIT_NOFILE's resource number.
const nofile = 7

// Current is the Getter of this process's own limits as the shell that started it set them.
// Go raises its own soft RLIMIT_NOFILE to one below the hard limit when it starts (and puts
// the original back in the children it starts); a command that exported that raised value
// would propagate a limit the user never set. So when the soft limit is exactly the hard
// limit minus one, Current starts /bin/true, which Go starts with the original limit, and
// reads that child's limit with prlimit(2) before reaping it (startNofile). If that fails the
// raised value is what it reports.
func Current(resource int) (cur, max uint64, err error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(resource, &r); err != nil {
		return 0, 0, err
	}
	if resource == nofile && nofileRaised(r) {
		if c, ok := startNofile(); ok {
			r.Cur = c
		}
	}
	return r.Cur, r.Max, nil
}

// nofileRaised says whether r looks like the RLIMIT_NOFILE Go's start-up raised.
func nofileRaised(r syscall.Rlimit) bool {
	return r.Max > 0 && r.Max != rlimInfinity && r.Cur == r.Max-1
}

// Prefetch starts, in the background, the probe Current would make for RLIMIT_NOFILE, so a
// command that calls it first thing has the answer by the time it builds its environment:
// the probe's process start then overlaps the command's own start-up (reading slurm.conf,
// parsing options) instead of adding to it.
func Prefetch() {
	var r syscall.Rlimit
	if syscall.Getrlimit(nofile, &r) == nil && nofileRaised(r) {
		go startNofile()
	}
}

// rlimInfinity is RLIM_INFINITY.
const rlimInfinity = ^uint64(0)

var (
	startOnce sync.Once
	startCur  uint64
	startOK   bool
)

// startNofile is the soft RLIMIT_NOFILE this process started with (see Current). The child
// is started traced (PTRACE_TRACEME): it stops as its exec completes, before the dynamic
// loader runs, which makes the probe a fraction of a full /bin/true run; it is then killed
// and reaped. Where tracing is not allowed it runs /bin/true to its end instead; a child
// that has exited keeps its limits until it is reaped.
func startNofile() (uint64, bool) {
	startOnce.Do(func() {
		null, err := os.Open(os.DevNull)
		if err != nil {
			return
		}
		defer null.Close()
		attr := &os.ProcAttr{Files: []*os.File{null, null, null}, Sys: &syscall.SysProcAttr{Ptrace: true}}
		p, err := os.StartProcess("/bin/true", []string{"true"}, attr)
		if err != nil {
			attr.Sys = nil
			if p, err = os.StartProcess("/bin/true", []string{"true"}, attr); err != nil {
				return
			}
		}
		var r syscall.Rlimit
		_, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(p.Pid), nofile, 0, uintptr(unsafe.Pointer(&r)), 0, 0)
		if attr.Sys != nil {
			p.Kill()
		}
		p.Wait()
		if e == 0 {
			startCur, startOK = r.Cur, true
		}
	})
	return startCur, startOK
}
