//go:build linux && cgo

package taskexec

/*
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

// The soft RLIMIT_NOFILE this process started with: the Go runtime raises it to the hard
// limit during its initialisation (after C constructors run), and restores it in children it
// forks itself; tasks started here get it back the same way.
static struct rlimit orbit_taskexec_nofile;
static int orbit_taskexec_have_nofile;

__attribute__((constructor)) static void orbit_taskexec_init(void) {
	if (getrlimit(RLIMIT_NOFILE, &orbit_taskexec_nofile) == 0)
		orbit_taskexec_have_nofile = 1;
}

struct orbit_rlimit {
	int resource;
	int clamp;
	unsigned long long cur;
	const char *failmsg; // NULL: say nothing on failure
	int failmsglen;
};

struct orbit_spawn {
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *dir;      // NULL: stay
	int fds[3];
	const int *inherit;   // descriptors the task keeps at their own numbers
	int ninherit;
	int setsid;
	int ctty;             // make stdin (a terminal) the controlling terminal, after setsid
	int traceme;          // stop at exec, traced by the parent (srun --debugger-test)
	int setcred;
	unsigned int uid, gid;
	int ngroups;
	const gid_t *groups;
	char *pidslot;        // NULL, or room for the pid's digits and a NUL
	const struct orbit_rlimit *rlimits;
	int nrlimits;
	volatile int err;     // the child's errno when setup or exec failed
};

// orbit_taskexec_child runs in the child, on its own stack, sharing the parent's memory until
// it execs: only system calls, no allocation, no locks.
static int orbit_taskexec_child(void *arg) {
	struct orbit_spawn *s = arg;
	// Every signal back to SIG_DFL, with the raw system call: glibc's sigaction refuses its
	// own internal signals (32 and 33), which a parent may have ignored (GNU make runs its
	// recipes so) and a task must not inherit ignored. SIG_DFL is 0, so an all-zero kernel
	// sigaction is right whatever the architecture's layout of it.
	unsigned long ksa[8];
	memset(ksa, 0, sizeof ksa);
	for (int sig = 1; sig < _NSIG; sig++) {
		if (sig != SIGKILL && sig != SIGSTOP)
			syscall(SYS_rt_sigaction, sig, ksa, NULL, _NSIG / 8);
	}
	if (s->setsid && setsid() < 0)
		goto fail;
	if (s->setcred) {
		// Raw system calls: glibc's wrappers would ask every thread of the (shared) parent
		// to change its credentials too.
		if (syscall(SYS_setgroups, s->ngroups, s->groups) < 0)
			goto fail;
		if (syscall(SYS_setgid, s->gid) < 0)
			goto fail;
		if (syscall(SYS_setuid, s->uid) < 0)
			goto fail;
	}
	if (s->dir != NULL && chdir(s->dir) < 0)
		goto fail;
	int fd[3];
	for (int i = 0; i < 3; i++) {
		fd[i] = s->fds[i];
		if (fd[i] < 3) { // move out of the way of the dup2s below
			fd[i] = fcntl(fd[i], F_DUPFD_CLOEXEC, 3);
			if (fd[i] < 0)
				goto fail;
		}
	}
	for (int i = 0; i < 3; i++) {
		if (dup2(fd[i], i) < 0)
			goto fail;
	}
	if (s->ctty && ioctl(0, TIOCSCTTY, 0) < 0)
		goto fail;
	// The child has its own descriptor table (no CLONE_FILES): clearing close-on-exec here
	// leaves the parent's copy, and every other task's, closed on exec.
	for (int i = 0; i < s->ninherit; i++) {
		if (fcntl(s->inherit[i], F_SETFD, 0) < 0)
			goto fail;
	}
	if (orbit_taskexec_have_nofile)
		setrlimit(RLIMIT_NOFILE, &orbit_taskexec_nofile);
	// Propagated soft limits last, as the user, as Slurm's exec_task does; a failure is
	// reported on the task's stderr (already wired) and the task starts anyway.
	for (int i = 0; i < s->nrlimits; i++) {
		const struct orbit_rlimit *r = &s->rlimits[i];
		struct rlimit cur;
		if (getrlimit(r->resource, &cur) < 0 || cur.rlim_cur == (rlim_t)r->cur)
			continue;
		cur.rlim_cur = (rlim_t)r->cur;
		if (r->clamp && cur.rlim_cur > cur.rlim_max)
			cur.rlim_cur = cur.rlim_max;
		if (setrlimit(r->resource, &cur) < 0 && r->failmsg != NULL) {
			const char *why = errno == EINVAL ? "Invalid argument" :
				errno == EPERM ? "Operation not permitted" : "Unknown error";
			(void)!write(2, r->failmsg, r->failmsglen);
			(void)!write(2, why, strlen(why));
			(void)!write(2, "\n", 1);
		}
	}
	if (s->pidslot != NULL) {
		char digits[24];
		long pid = syscall(SYS_getpid);
		int n = 0;
		do {
			digits[n++] = '0' + pid % 10;
			pid /= 10;
		} while (pid > 0 && n < 20);
		for (int i = 0; i < n; i++)
			s->pidslot[i] = digits[n - 1 - i];
		s->pidslot[n] = 0;
	}
	sigset_t none;
	sigemptyset(&none);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, _NSIG / 8);
	if (s->traceme && syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) < 0)
		goto fail;
	execve(s->path, s->argv, s->envp);
fail:
	s->err = errno;
	_exit(127);
}

// orbit_taskexec_spawn starts the child and returns its pid, or -errno when it could not be
// started or set up (the failed child is reaped here).
static int orbit_taskexec_spawn(struct orbit_spawn *s) {
	enum { stackSize = 64 * 1024 };
	char *stack = malloc(stackSize);
	if (stack == NULL)
		return -ENOMEM;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->err = 0;
	int pid = clone(orbit_taskexec_child, stack + stackSize, CLONE_VM | CLONE_VFORK | SIGCHLD, s);
	int cerr = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(stack);
	if (pid < 0)
		return -cerr;
	if (s->err != 0) {
		int e = s->err;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -e;
	}
	return pid;
}
*/
import "C"

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Start starts p and returns its pid. An error is the errno of the step that failed
// (setsid, the credential change, chdir, the streams or execve): no process is left then.
// The caller waits for the child (it is a child of this process, SIGCHLD on exit).
func Start(p *Proc) (int, error) {
	l, err := pack(p)
	if err != nil {
		return 0, err
	}
	ptr := unsafe.Sizeof(uintptr(0))
	nptr := len(l.argv) + 1 + len(l.envp) + 1
	groups := 0
	if p.Cred != nil {
		groups = len(p.Cred.Groups)
	}
	// One C allocation: the pointer arrays, the groups, then the strings.
	head := uintptr(nptr)*ptr + uintptr(groups)*4
	head = (head + ptr - 1) &^ (ptr - 1)
	mem := C.malloc(C.size_t(head + uintptr(len(l.block)) + 1))
	if mem == nil {
		return 0, syscall.ENOMEM
	}
	defer C.free(mem)
	s := (*C.struct_orbit_spawn)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_orbit_spawn{}))))
	if s == nil {
		return 0, syscall.ENOMEM
	}
	defer C.free(unsafe.Pointer(s))
	base := unsafe.Pointer(uintptr(mem) + head)
	copy(unsafe.Slice((*byte)(base), len(l.block)), l.block)
	str := func(off int) *C.char { return (*C.char)(unsafe.Add(base, off)) }
	ptrs := unsafe.Slice((**C.char)(mem), nptr)
	for i, off := range l.argv {
		ptrs[i] = str(off)
	}
	ptrs[len(l.argv)] = nil
	envp := ptrs[len(l.argv)+1:]
	for i, off := range l.envp {
		envp[i] = str(off)
	}
	envp[len(l.envp)] = nil

	s.path = str(0)
	s.argv = &ptrs[0]
	s.envp = &envp[0]
	if p.Dir != "" {
		d := C.CString(p.Dir)
		defer C.free(unsafe.Pointer(d))
		s.dir = d
	}
	for i, fd := range p.Files {
		s.fds[i] = C.int(fd)
	}
	if n := len(p.Inherit); n > 0 {
		in := (*C.int)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.int(0)))))
		if in == nil {
			return 0, syscall.ENOMEM
		}
		defer C.free(unsafe.Pointer(in))
		for i, fd := range p.Inherit {
			if fd < 3 {
				return 0, syscall.EBADF // the standard streams are Files'
			}
			unsafe.Slice(in, n)[i] = C.int(fd)
		}
		s.inherit, s.ninherit = in, C.int(n)
	}
	if p.Setsid {
		s.setsid = 1
	}
	if p.Ctty {
		s.ctty = 1
	}
	if p.StopAtExec {
		s.traceme = 1
	}
	if c := p.Cred; c != nil {
		s.setcred, s.uid, s.gid, s.ngroups = 1, C.uint(c.UID), C.uint(c.GID), C.int(len(c.Groups))
		if len(c.Groups) > 0 {
			g := unsafe.Slice((*C.gid_t)(unsafe.Add(mem, uintptr(nptr)*ptr)), len(c.Groups))
			for i, id := range c.Groups {
				g[i] = C.gid_t(id)
			}
			s.groups = &g[0]
		}
	}
	if l.pidSlot >= 0 {
		s.pidslot = str(l.pidSlot)
	}
	if n := len(p.Rlimits); n > 0 {
		rl := (*C.struct_orbit_rlimit)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.struct_orbit_rlimit{}))))
		if rl == nil {
			return 0, syscall.ENOMEM
		}
		defer C.free(unsafe.Pointer(rl))
		entries := unsafe.Slice(rl, n)
		for i, want := range p.Rlimits {
			e := &entries[i]
			e.resource, e.cur = C.int(want.Resource), C.ulonglong(want.Cur)
			if want.Clamp {
				e.clamp = 1
			}
			if want.FailMsg != "" {
				m := C.CString(want.FailMsg)
				defer C.free(unsafe.Pointer(m))
				e.failmsg, e.failmsglen = m, C.int(len(want.FailMsg))
			}
		}
		s.rlimits, s.nrlimits = rl, C.int(n)
	}
	// As syscall.ForkExec: no other goroutine creates a descriptor without close-on-exec
	// while the child could inherit it.
	if p.StopAtExec {
		// The tracer is the thread that starts the task: the same one must take its stop.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	syscall.ForkLock.Lock()
	pid := C.orbit_taskexec_spawn(s)
	syscall.ForkLock.Unlock()
	if pid < 0 {
		return 0, syscall.Errno(-pid)
	}
	if p.StopAtExec {
		stopUntraced(int(pid))
	}
	return int(pid), nil
}

// stopUntraced turns a task's tracing stop at exec into a plain stop, as Slurm's
// pdebug_trace_process does: it waits for the stop, sends SIGSTOP and detaches, so the task
// stays stopped, untraced, for a debugger to attach, and SIGCONT and SIGTERM end it as any
// stopped process. Should the task not stop (killed meanwhile), its end is left to whoever
// waits for it.
func stopUntraced(pid int) {
	var ws syscall.WaitStatus
	for {
		got, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || got != pid || !ws.Stopped() {
			return
		}
		break
	}
	syscall.Kill(pid, syscall.SIGSTOP)
	syscall.PtraceDetach(pid)
}

// Supported says Start can start tasks in this build.
const Supported = true
