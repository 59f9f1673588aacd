package taskexec

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupported is Start's error in a build that cannot start tasks this way (no cgo, or
// not Linux).
var ErrUnsupported = errors.New("taskexec: built without cgo: cannot set the task's own pid (SLURM_TASK_PID) before exec")

// Cred is the user a task runs as (set only when the caller is root and must switch).
type Cred struct {
	UID, GID uint32
	Groups   []uint32
}

// Proc is one process to start.
type Proc struct {
	Path string   // executed as given (relative to Dir when not absolute)
	Argv []string // argv[0] included
	// Env is the environment; Extra entries are added to it and replace entries of Env with
	// the same name (per-task variables). PidVar, when set, names a variable the child finds
	// set to its own pid (it replaces any entry of that name).
	Env    []string
	Extra  []string
	PidVar string
	Dir    string // "" stays in the caller's directory
	Files  [3]uintptr
	// Inherit are further descriptors (3 and above) the task keeps open at their own
	// numbers, such as the PMI socket it finds in PMI_FD; every other descriptor of the
	// caller is closed on exec as usual.
	Inherit []uintptr
	Setsid  bool
	// Ctty makes the child's stdin, a terminal (srun --pty), its controlling terminal once
	// Setsid has made it a session leader.
	Ctty bool
	// StopAtExec leaves the task stopped as it execs, traced by the thread that started it,
	// for a parallel debugger to attach (srun --debugger-test); it runs no further unless
	// a tracer resumes it, and a kill ends it.
	StopAtExec bool
	Cred       *Cred
	// Rlimits are soft limits the child sets after it has become Cred's user and wired its
	// streams, just before exec (Slurm's set_user_limits in exec_task); they apply to the
	// task and everything it starts, and leave the caller's own limits alone.
	Rlimits []Rlimit
}

// Rlimit is one soft limit a task starts with.
type Rlimit struct {
	Resource int    // RLIMIT_* number
	Cur      uint64 // the soft limit; RLIM_INFINITY (all ones) for unlimited
	// Clamp lowers Cur to the hard limit when it is above it (a limit propagated by
	// slurm.conf); otherwise setrlimit fails then and FailMsg is written.
	Clamp bool
	// FailMsg, when set, is written to the task's stderr, followed by the error's text
	// ("Invalid argument") and a newline, when the limit cannot be set. The task starts
	// all the same.
	FailMsg string
}

// maxPidDigits is the room the child has for its pid's decimal digits.
const maxPidDigits = 20

// envName is the name part of a NAME=value entry.
func envName(kv string) string {
	if i := strings.IndexByte(kv, '='); i >= 0 {
		return kv[:i]
	}
	return kv
}

// validVarName reports whether name can be an environment variable name here.
func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// layout is argv and the environment packed as the child needs them: NUL-terminated strings
// in one block, the offsets of argv's and envp's strings, and where the pid's digits go.
type layout struct {
	block   []byte
	argv    []int
	envp    []int
	pidSlot int // offset of the pid digits' room in block; -1 for none
}

// pack lays out p's strings; an argument or variable holding NUL cannot be passed to exec.
func pack(p *Proc) (*layout, error) {
	if p.Path == "" || len(p.Argv) == 0 {
		return nil, errors.New("taskexec: no command")
	}
	if p.PidVar != "" && !validVarName(p.PidVar) {
		return nil, fmt.Errorf("taskexec: %q is not a variable name", p.PidVar)
	}
	l := &layout{pidSlot: -1}
	size := len(p.Path) + 1
	for _, s := range p.Argv {
		size += len(s) + 1
	}
	for _, s := range p.Env {
		size += len(s) + 1
	}
	for _, s := range p.Extra {
		size += len(s) + 1
	}
	size += len(p.PidVar) + 2 + maxPidDigits
	l.block = make([]byte, 0, size)
	add := func(s string) (int, error) {
		if strings.IndexByte(s, 0) >= 0 {
			return 0, fmt.Errorf("taskexec: %q holds a NUL byte", s)
		}
		off := len(l.block)
		l.block = append(append(l.block, s...), 0)
		return off, nil
	}
	if _, err := add(p.Path); err != nil {
		return nil, err
	}
	for _, s := range p.Argv {
		off, err := add(s)
		if err != nil {
			return nil, err
		}
		l.argv = append(l.argv, off)
	}
	// Names that Extra or PidVar set replace Env's entries of the same name; among Extra
	// entries, the last of a name wins (as os/exec's dedupEnv).
	var over map[string]int
	if len(p.Extra) > 0 || p.PidVar != "" {
		over = make(map[string]int, len(p.Extra)+1)
		for i, kv := range p.Extra {
			over[envName(kv)] = i
		}
		if p.PidVar != "" {
			over[p.PidVar] = -1
		}
	}
	l.envp = make([]int, 0, len(p.Env)+len(p.Extra)+1)
	for _, kv := range p.Env {
		if _, ok := over[envName(kv)]; ok {
			continue
		}
		off, err := add(kv)
		if err != nil {
			return nil, err
		}
		l.envp = append(l.envp, off)
	}
	for i, kv := range p.Extra {
		if over[envName(kv)] != i {
			continue
		}
		off, err := add(kv)
		if err != nil {
			return nil, err
		}
		l.envp = append(l.envp, off)
	}
	if p.PidVar != "" {
		off, err := add(p.PidVar + "=" + strings.Repeat("0", maxPidDigits))
		if err != nil {
			return nil, err
		}
		l.envp = append(l.envp, off)
		l.pidSlot = off + len(p.PidVar) + 1
	}
	return l, nil
}
