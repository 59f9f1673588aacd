package stepd

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Memory cgroups for task/cgroup with ConstrainRAMSpace=yes (cgroup.conf), as Slurm's
// task/cgroup memory plugin: each step's tasks run in <mount>/orbit_<node>/job_<id>/step_<step>
// with the job's memory limit (--mem, or --mem-per-cpu times the node's CPUs, scaled by
// AllowedRAMSpace percent). After the step, an oom_kill count above zero means the kernel's
// OOM killer ended one of the step's processes: the step and the job end OUT_OF_MEMORY and
// slurmstepd writes Slurm's "Detected N oom-kill event(s)" error to the job's stderr.
//
// Both hierarchies are supported: cgroup v1 (memory controller mounted at
// <mount>/memory: memory.limit_in_bytes, the oom_kill line of memory.oom_control) and the
// unified v2 hierarchy (memory.max, the oom_kill line of memory.events). Where the
// hierarchy is not writable (not root, read-only mount) NewMemoryCgroup fails with
// ErrCgroupUnavailable and the caller runs the step without a limit, saying so once.

// ErrCgroupUnavailable says no writable memory cgroup hierarchy was found.
var ErrCgroupUnavailable = errors.New("no writable memory cgroup hierarchy")

// cgroupRoot is Slurm's CgroupMountpoint default.
const cgroupRoot = "/sys/fs/cgroup"

// MemoryCgroup is one step's memory cgroup.
type MemoryCgroup struct {
	dir    string // the step's cgroup directory
	jobDir string // its parent, the job's
	v2     bool
}

// MemoryLimit is the byte limit of a job with memMiB MiB per node (0 = none requested) and
// AllowedRAMSpace percent (cgroup.conf; 100 when unset), as task/cgroup computes it.
func MemoryLimit(memMiB uint64, allowedPercent float64) uint64 {
	if memMiB == 0 {
		return 0
	}
	if allowedPercent <= 0 {
		allowedPercent = 100
	}
	return uint64(float64(memMiB<<20) * allowedPercent / 100)
}

// NewMemoryCgroup creates the step's memory cgroup on node under mount (CgroupMountpoint;
// "" for /sys/fs/cgroup) with limit bytes (0 = no limit, only OOM accounting). The node's
// name is part of the path (orbit_<node>), as Slurm's multiple-slurmd build names its
// hierarchy slurm_<node>: emulated nodes of one machine run the same job's steps side by side.
func NewMemoryCgroup(mount, node string, job uint32, step string, limit uint64) (*MemoryCgroup, error) {
	if mount == "" {
		mount = cgroupRoot
	}
	m := &MemoryCgroup{}
	base := filepath.Join(mount, "memory")
	if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err == nil {
		m.v2, base = true, mount // unified hierarchy
	} else if _, err := os.Stat(filepath.Join(base, "memory.limit_in_bytes")); err != nil {
		return nil, fmt.Errorf("%w: %s has neither cgroup v2 nor a v1 memory controller", ErrCgroupUnavailable, mount)
	}
	top := filepath.Join(base, "orbit")
	if node != "" {
		top += "_" + node
	}
	m.jobDir = filepath.Join(top, fmt.Sprintf("job_%d", job))
	m.dir = filepath.Join(m.jobDir, "step_"+step)
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCgroupUnavailable, err)
	}
	if m.v2 {
		// v2 needs the memory controller enabled in every parent's subtree_control.
		for _, d := range []string{base, top, m.jobDir} {
			if err := writeCgroup(d, "cgroup.subtree_control", "+memory"); err != nil {
				m.Remove()
				return nil, fmt.Errorf("%w: %v", ErrCgroupUnavailable, err)
			}
		}
	}
	if limit > 0 {
		file, val := "memory.limit_in_bytes", strconv.FormatUint(limit, 10)
		if m.v2 {
			file = "memory.max"
		}
		if err := writeCgroup(m.dir, file, val); err != nil {
			m.Remove()
			return nil, fmt.Errorf("%w: %v", ErrCgroupUnavailable, err)
		}
		// Swap past the limit would hide the overrun instead of ending it (where the kernel
		// accounts swap; the files are absent otherwise).
		if m.v2 {
			writeCgroup(m.dir, "memory.swap.max", "0")
		} else {
			writeCgroup(m.dir, "memory.memsw.limit_in_bytes", val)
		}
	}
	return m, nil
}

// Dir is the step's cgroup directory.
func (m *MemoryCgroup) Dir() string { return m.dir }

// AddPid moves a process (and its future children) into the cgroup.
func (m *MemoryCgroup) AddPid(pid int) error {
	return writeCgroup(m.dir, "cgroup.procs", strconv.Itoa(pid))
}

// OOMKills is how many processes of the cgroup the OOM killer ended (0 when the kernel does
// not count them).
func (m *MemoryCgroup) OOMKills() uint64 {
	file := "memory.oom_control"
	if m.v2 {
		file = "memory.events"
	}
	f, err := os.Open(filepath.Join(m.dir, file))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "oom_kill "); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// OOMMessage is the error slurmstepd writes to the job's stderr after an OOM kill (Slurm
// 22.05's task/cgroup text, src/plugins/task/cgroup/task_cgroup_memory.c), for step
// "123.batch" or "123.0" on node; node "" names the stepd plain "slurmstepd" (a build
// without multiple slurmd support; the reference's names itself slurmstepd-<node>).
func OOMMessage(node string, kills uint64, step string) string {
	prefix := (&StepSpec{NodeName: node}).logPrefix()
	return fmt.Sprintf("%s: error: Detected %d oom-kill event(s) in StepId=%s. Some of your processes may have been killed by the cgroup out-of-memory handler.\n", prefix, kills, step)
}

// SigOOM is the status Slurm reports for a task of a step that saw an oom-kill (its dummy
// signal SIG_OOM): srun prints "Out Of Memory" and the job ends OUT_OF_MEMORY.
const SigOOM = 253

// CgroupAvailable says whether memory cgroups can be created under mount ("" for
// /sys/fs/cgroup), by creating and removing an empty one; slurmd asks once at start.
func CgroupAvailable(mount string) error {
	m, err := NewMemoryCgroup(mount, "", 0, "probe", 0)
	if err != nil {
		return err
	}
	m.Remove()
	return nil
}

// Remove deletes the step's cgroup, and the job's when no other step uses it. It must be
// called after every process of the step is gone (a cgroup with members cannot be removed);
// the caller moves itself out first if it had joined.
func (m *MemoryCgroup) Remove() {
	os.Remove(m.dir)
	os.Remove(m.jobDir) // fails while another step of the job still has its cgroup
}

// LeaveCgroup moves the calling process back to the hierarchy's root, so that the step's
// cgroup can be removed after the supervisor had joined it.
func (m *MemoryCgroup) LeaveCgroup() error {
	root := filepath.Dir(filepath.Dir(filepath.Dir(m.dir))) // <base>/orbit_n/job_x/step_y → <base>
	return writeCgroup(root, "cgroup.procs", strconv.Itoa(os.Getpid()))
}

func writeCgroup(dir, file, val string) error {
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(val)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
