package testsuite_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
)

const module = "github.com/orbit-hpc/orbit"

// depRules says, for each group of packages, which Orbit packages they must never link. The
// layout in DESIGN.md §3 depends on these: commands stay small and free of daemon code, and the
// shared surface libraries import nothing above them.
var depRules = []struct {
	pkgs      string   // a `go list` pattern
	forbidden []string // import-path prefixes under the module
	why       string
}{
	{"./compat/...", []string{"/conf", "/internal", "/plugins", "/slurmctld", "/slurmd", "/satellited", "/scontrol", "/testsuite"},
		"compat/ is the surface every binary links; it may depend on nothing but itself"},
	{"./compat/openapi", []string{"/conf", "/internal/auth", "/internal/cmdclient", "/internal/store", "/internal/rpcauth", "/plugins", "/slurmctld", "/slurmd", "/satellited", "/scontrol", "/squeue", "/sinfo", "/testsuite"},
		"compat/openapi renders wire info types: it may link compat/ and internal/wire only"},
	{"./conf/...", []string{"/internal", "/plugins", "/slurmctld", "/slurmd", "/satellited", "/scontrol", "/testsuite"},
		"conf/ is read by commands and daemons alike; it must not pull in daemon code"},
	{"./scontrol/...", []string{"/slurmctld", "/slurmd", "/satellited", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon"},
	{"./sbatch/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./squeue/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./sinfo/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./sprio/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./sacct/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./scancel/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./salloc/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./sdiag/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./srun/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a command is a thin client: it never links a daemon or the store"},
	{"./ssim/...", []string{"/slurmctld/schedhost", "/slurmd", "/satellited", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"ssim runs the real controller (slurmctld/ctld) with the scheduler plugins in-process on emulated nodes: it never links slurmd, a relay or the plugin host"},
	{"./internal/cmdclient/...", []string{"/slurmctld", "/slurmd", "/satellited", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"what commands share must not pull daemon code into them"},
	{"./slurmctld/...", []string{"/scontrol", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"a daemon never links a command or test code"},
	{"./plugins/...", []string{"/conf", "/internal", "/slurmctld", "/slurmd", "/satellited", "/scontrol", "/sbatch", "/squeue", "/testsuite"},
		"a scheduler plugin links the SDK (plugins/scheduler), compat/ and plugin code only: it sees the cluster through State and Delta"},
	{"./slurmctld/ctld/...", []string{"/slurmctld/schedhost"},
		"the controller takes its scheduler as an interface; slurmctld's main starts the plugin host"},
	{"./slurmd/...", []string{"/slurmctld", "/scontrol", "/internal/store", "/testsuite", "/internal/testbin", "/internal/testmunge"},
		"the node daemon never links the controller, its store, a command or test code"},
	{"./slurmd/taskexec/...", []string{"/compat", "/conf", "/internal", "/plugins", "/slurmctld", "/slurmd/node", "/slurmd/stepd", "/slurmd/slurmstepd", "/slurmd/stepdlaunch", "/satellited", "/scontrol", "/testsuite"},
		"taskexec starts one task process for slurmstepd; it needs nothing but the standard library"},
	{"./internal/wire/...", []string{"/conf", "/compat", "/internal/auth", "/internal/store", "/slurmctld", "/slurmd", "/scontrol"},
		"the transport knows frames and messages, not configuration, auth or daemons"},
	{"./internal/auth/...", []string{"/conf", "/internal/wire", "/internal/store", "/slurmctld", "/slurmd", "/scontrol"},
		"auth signs and verifies bytes; it must not depend on the transport or the daemons"},
	{"./internal/store/...", []string{"/conf", "/compat", "/internal/wire", "/internal/auth", "/slurmctld", "/slurmd", "/scontrol"},
		"the store keeps opaque records; the controller owns what they mean"},
}

// depRuleAllow lists, for a rule's pattern, packages under a forbidden prefix it may link
// all the same: conf/ resolves SlurmUser's uid through internal/userdb, a leaf over the
// standard library that commands need for NSS lookups without cgo, not daemon code.
var depRuleAllow = map[string][]string{
	"./conf/...": {"/internal/userdb"},
}

// depRuleExcept lists, for a rule's pattern, packages it matches that have a rule of
// their own: compat/openapi renders internal/wire's info types.
var depRuleExcept = map[string][]string{
	"./compat/...": {"./compat/openapi"},
}

func TestDependencyRules(t *testing.T) {
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range depRules {
		t.Run(strings.Trim(r.pkgs, "./"), func(t *testing.T) {
			// -deps lists every package linked by the pattern; ImportPath plus the root
			// package lets us name which package pulled the forbidden one in.
			args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
			if except := depRuleExcept[r.pkgs]; len(except) > 0 {
				args = append(args, packagesExcept(t, root, r.pkgs, except)...)
			} else {
				args = append(args, r.pkgs)
			}
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				if strings.Contains(stderr.String(), "matched no packages") {
					return
				}
				t.Fatalf("go list %s: %v\n%s", r.pkgs, err, stderr.String())
			}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				dep := sc.Text()
				if slices.ContainsFunc(depRuleAllow[r.pkgs], func(a string) bool { return dep == module+a }) {
					continue
				}
				for _, f := range r.forbidden {
					if dep == module+f || strings.HasPrefix(dep, module+f+"/") {
						t.Errorf("%s links %s: %s", r.pkgs, dep, r.why)
					}
				}
			}
		})
	}
}

// packagesExcept lists the packages of pattern other than those in except.
func packagesExcept(t *testing.T, root, pattern string, except []string) []string {
	cmd := exec.Command("go", "list", pattern)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	skip := map[string]bool{}
	for _, e := range except {
		skip[module+strings.TrimPrefix(e, ".")] = true
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if !skip[p] {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// heavyForCommands are packages no user command may link: each costs start-up CPU in
// package init on every invocation (issue 9's floor), and a command never needs them.
// ugorji/go/codec linked net/rpc, encoding/gob, net/http and html/template through its
// rpc.go; internal/wire has its own msgpack codec instead.
var heavyForCommands = []string{"github.com/ugorji/go/codec", "net/rpc", "net/http", "encoding/gob", "html/template"}

// userCommands are the commands users run, often many times a minute from scripts.
var userCommands = []string{"./squeue", "./sinfo", "./scontrol", "./sbatch", "./srun", "./scancel",
	"./sacct", "./salloc", "./sdiag", "./sprio"}

func TestDependencyRules_CommandsLinkNoHeavyLibraries(t *testing.T) {
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range userCommands {
		t.Run(strings.TrimPrefix(c, "./"), func(t *testing.T) {
			// Each command alone, with the package that imports each dependency, so a
			// failure names who pulled the heavy package in.
			cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, c)
			cmd.Dir = root
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list %s: %v\n%s", c, err, stderr.String())
			}
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				for _, imp := range f[1:] {
					for _, h := range heavyForCommands {
						if imp == h {
							t.Errorf("%s links %s (imported by %s): package init costs every invocation start-up CPU", c, h, f[0])
						}
					}
				}
			}
		})
	}
}

// userLookupPackages are the packages user commands link that look users or groups up: they
// go through internal/userdb, which falls back to getent when the commands are built without
// cgo (as `make build` builds them), so that NSS-only users (LDAP, SSSD) still resolve.
var userLookupPackages = append(slices.Clone(userCommands), "./conf", "./compat/...", "./internal/cmdclient",
	"./slurmd/slurmstepd") // its lookups too, though it keeps cgo (slurmd/taskexec's spawn)

func TestDependencyRules_CommandsLookUsersUpThroughUserdb(t *testing.T) {
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// The commands' own packages and every Orbit package they link, each with its direct
	// imports; only internal/userdb may import os/user.
	args := append([]string{"list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{end}}`}, userLookupPackages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], module+"/") {
			continue
		}
		seen++
		if f[0] == module+"/internal/userdb" {
			continue
		}
		if slices.Contains(f[1:], "os/user") {
			t.Errorf("%s imports os/user: a user command's lookups go through internal/userdb, or a build without cgo loses NSS users", f[0])
		}
	}
	if seen == 0 {
		t.Fatal("go list named no Orbit packages")
	}
}
