package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestRunAs_UidGid: root's sbatch, srun and salloc with --uid (and --gid) make jobs that
// belong to that user and run as them, as Slurm 22.05's do (compared on the reference):
// sbatch's script keeps root's group unless --gid names one, srun becomes the user with
// the user's groups, salloc runs its command as the user without supplementary groups. A
// user who is not root is refused when the option is read (exit 255).
func TestRunAs_UidGid(t *testing.T) {
	a := newAccount(t)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	openToUsers(t, c)
	dir := userDir(t, c, a)
	asRoot := func(name string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(testbin.Path(t, name), args...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "SLURM_CONF=" + c.ConfPath, "HOME=/root"}
		cmd.Dir = dir
		return cluster.RunCommand(t, cmd)
	}
	ids := fmt.Sprintf("%d %d", a.uid, a.gid)

	// sbatch --uid: the user's job, root's group; the output file is the user's.
	out, errOut, code := asRoot("sbatch", "--parsable", "--uid="+a.name, "-o", "uid.out", "--wrap", "echo $(id -u) $(id -g)")
	if code != 0 {
		t.Fatalf("sbatch --uid: exit %d: %s", code, errOut)
	}
	id, _ := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	j := c.WaitJob(t, uint32(id), states.JobComplete)
	if j.UserID != a.uid || j.GroupID != 0 {
		t.Errorf("sbatch --uid job: uid %d gid %d, want %d 0", j.UserID, j.GroupID, a.uid)
	}
	if got := readFile(t, filepath.Join(dir, "uid.out")); got != fmt.Sprintf("%d 0\n", a.uid) {
		t.Errorf("sbatch --uid script printed %q, want uid %d gid 0", got, a.uid)
	}
	if fi, err := os.Stat(filepath.Join(dir, "uid.out")); err != nil || fi.Sys().(*syscall.Stat_t).Uid != a.uid {
		t.Errorf("sbatch --uid output file: %v, want owned by uid %d", err, a.uid)
	}

	// sbatch --uid --gid: both.
	out, errOut, code = asRoot("sbatch", "--parsable", "--uid="+strconv.Itoa(int(a.uid)), "--gid="+strconv.Itoa(int(a.gid)), "-o", "gid.out", "--wrap", "echo $(id -u) $(id -g)")
	if code != 0 {
		t.Fatalf("sbatch --uid --gid: exit %d: %s", code, errOut)
	}
	id, _ = strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	c.WaitJob(t, uint32(id), states.JobComplete)
	if got := readFile(t, filepath.Join(dir, "gid.out")); got != ids+"\n" {
		t.Errorf("sbatch --uid --gid script printed %q, want %q", got, ids)
	}

	// srun --uid: srun becomes the user; the task runs as the user.
	if out, errOut, code := asRoot("srun", "--uid="+a.name, "sh", "-c", "echo $(id -u) $(id -g)"); code != 0 || out != fmt.Sprintf("%d 0\n", a.uid) {
		t.Errorf("srun --uid = %q, %q, exit %d; want uid %d gid 0", out, errOut, code, a.uid)
	}
	// salloc --uid --gid: the command runs as the user, in the group, with no other groups.
	if out, errOut, code := asRoot("salloc", "--uid="+a.name, "--gid="+strconv.Itoa(int(a.gid)), "sh", "-c", "echo $(id -u) $(id -G)"); code != 0 || out != ids+"\n" {
		t.Errorf("salloc --uid --gid = %q, %q, exit %d; want %q", out, errOut, code, ids)
	}

	// Not root: refused by name before anything is sent.
	for _, cmd := range []string{"sbatch", "srun", "salloc"} {
		args := []string{"--uid=root", "true"}
		if cmd == "sbatch" {
			args = []string{"--uid=root", "--wrap", "true"}
		}
		_, errOut, code := runAs(t, c, a, dir, cmd, args...)
		if want := cmd + ": error: --uid only permitted by root user\n"; code != 255 || errOut != want {
			t.Errorf("%s --uid as a user: %q, exit %d; want %q, exit 255", cmd, errOut, code, want)
		}
	}
	if _, errOut, code := asRoot("sbatch", "--uid=no-such-user-orbit", "--wrap", "true"); code != 255 || errOut != "sbatch: error: Invalid --uid specification\n" {
		t.Errorf("sbatch --uid=unknown: %q, exit %d", errOut, code)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
