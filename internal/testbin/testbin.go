// Package testbin builds Orbit's binaries for tests that must run the real executables, the way
// a user or admin runs them. Each binary is built once per test process into a temporary
// directory (the Go build cache makes repeat builds cheap), so tests never depend on a stale
// bin/ or on PATH, where the reference Slurm's commands of the same names may live.
//
// Only tests import this package.
package testbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
)

var (
	mu    sync.Mutex
	built = map[string]string{}
	dir   string
)

// Path returns the path of the Orbit binary name, building it from the repository's ./<name>
// package on first use. name is the package directory ("scontrol", "slurmctld",
// "slurmd/slurmstepd"); the binary is named for its last element, and every binary lands in
// the same directory, so a daemon finds its helpers (slurmd finds slurmstepd) beside itself.
// It fails the test if the build fails.
func Path(t testing.TB, name string) string {
	t.Helper()
	p, err := build(name)
	if err != nil {
		t.Fatalf("testbin: %v", err)
	}
	return p
}

func build(name string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[name]; ok {
		return p, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	if dir == "" {
		// The directory lives as long as the test process (daemons started by tests run from
		// it); a later test process removes those of processes that are gone, so repeated
		// runs do not fill the disk with binaries.
		removeStale()
		if dir, err = os.MkdirTemp("", fmt.Sprintf("orbit-testbin-%d-", os.Getpid())); err != nil {
			return "", err
		}
	}
	out := filepath.Join(dir, filepath.Base(name))
	cmd := goBuild(out, name)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./%s: %v\n%s", name, err, b)
	}
	built[name] = out
	// A daemon's helpers land beside it, where it looks for them: slurmctld runs its
	// scheduler plugins from its own directory (slurmctld/schedhost).
	for _, helper := range companions[name] {
		if _, ok := built[helper]; ok {
			continue
		}
		hout := filepath.Join(dir, filepath.Base(helper))
		cmd := goBuild(hout, helper)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./%s: %v\n%s", helper, err, b)
		}
		built[helper] = hout
	}
	return out, nil
}

// UserCommands are the commands `make build` builds without cgo (the Makefile's
// USER_CMDS): statically linked, with os/user and net in pure Go and internal/userdb's getent
// fallback. Tests build them the same way, so they exercise what ships.
var UserCommands = []string{"sbatch", "srun", "salloc", "squeue", "scancel", "sinfo", "scontrol", "sacct", "sdiag", "sprio"}

// goBuild is the `go build` of package dir name into out, as `make build` builds it.
func goBuild(out, name string) *exec.Cmd {
	if slices.Contains(UserCommands, name) {
		cmd := exec.Command("go", "build", "-tags", "osusergo,netgo", "-o", out, "./"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		return cmd
	}
	return exec.Command("go", "build", "-o", out, "./"+name)
}

// companions are the executables built with a binary, into the same directory.
var companions = map[string][]string{
	"slurmctld": SchedulerPlugins,
}

// SchedulerPlugins are the packages of the scheduler plugins slurmctld runs.
var SchedulerPlugins = []string{"plugins/cmd/sched_backfill", "plugins/cmd/sched_builtin"}

// PluginDir builds the scheduler plugins and returns the directory they are in (the same as
// every binary's), for a controller run in-process.
func PluginDir(t testing.TB) string {
	t.Helper()
	var p string
	for _, name := range SchedulerPlugins {
		p = Path(t, name)
	}
	return filepath.Dir(p)
}

// RepoRoot returns the repository's top directory (the one holding go.mod).
func RepoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the repository root")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..")), nil
}

// removeStale deletes the binary directories of test processes that no longer exist.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "orbit-testbin-*-*"))
	for _, d := range dirs {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(d), "orbit-testbin-%d-", &pid); err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}
