package e2e_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// account is an unprivileged user created for one test.
type account struct {
	name     string
	uid, gid uint32
}

// newAccount creates a user with useradd and deletes it when the test ends.
func newAccount(t *testing.T) account {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test creates users with useradd and runs commands as them")
	}
	useradd, err := exec.LookPath("useradd")
	if err != nil {
		t.Skip("needs useradd (shadow-utils) to create the test users")
	}
	var rnd [4]byte
	rand.Read(rnd[:])
	name := fmt.Sprintf("orbt1_%x", rnd)
	if out, err := exec.Command(useradd, "-M", "-s", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v\n%s", name, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v\n%s", name, err, out)
		}
	})
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return account{name: name, uid: uint32(uid), gid: uint32(gid)}
}

// openToUsers makes the cluster's directory, its parent and the test binaries' directory
// traversable by other users (t.TempDir makes them 0700). slurm.key stays 0600, so other
// users must obtain credentials from slurmd's local auth socket.
func openToUsers(t *testing.T, c *cluster.Cluster) {
	t.Helper()
	for _, d := range []string{filepath.Dir(c.Dir), c.Dir, filepath.Dir(testbin.Path(t, "sbatch"))} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(filepath.Join(c.Dir, "slurm.key")); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("slurm.key must exist and be private to its owner: %v %v", fi.Mode(), err)
	}
}

// runAs runs Orbit's command name as user u in dir against cluster c.
func runAs(t *testing.T, c *cluster.Cluster, u account, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testbin.Path(t, name), args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "SLURM_CONF=" + c.ConfPath, "USER=" + u.name, "HOME=" + dir}
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: u.uid, Gid: u.gid, Groups: []uint32{}}}
	return cluster.RunCommand(t, cmd)
}

// userDir makes a working directory owned by u inside the cluster's directory.
func userDir(t *testing.T, c *cluster.Cluster, u account) string {
	t.Helper()
	d := filepath.Join(c.Dir, "home-"+u.name)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(d, int(u.uid), int(u.gid)); err != nil {
		t.Fatal(err)
	}
	return d
}

// sbatchAs runs sbatch as u in dir and returns the job id it printed.
func sbatchAs(t *testing.T, c *cluster.Cluster, u account, dir string, args ...string) uint32 {
	t.Helper()
	out, errOut, code := runAs(t, c, u, dir, "sbatch", args...)
	m := submitted.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("sbatch %q as %s = %q, %q, exit %d", args, u.name, out, errOut, code)
	}
	id, _ := strconv.ParseUint(m[1], 10, 32)
	return uint32(id)
}

// TestSecurity_UsersOwnTheirJobs: user A submits through the auth socket (A cannot read the
// key), A's job runs as A, user B sees A's jobs but cannot cancel them (Slurm 22.05 prints
// the error and exits with ESLURM_ACCESS_DENIED & 0xff = 210), A can.
func TestSecurity_UsersOwnTheirJobs(t *testing.T) {
	a, b := newAccount(t), newAccount(t)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	openToUsers(t, c)
	dirA, dirB := userDir(t, c, a), userDir(t, c, b)

	held := sbatchAs(t, c, a, dirA, "-J", "e2e_secheld", "-H", "--wrap", "true")
	ran := sbatchAs(t, c, a, dirA, "-J", "e2e_secid", "--wrap", "id -u; id -g")

	j := c.WaitJob(t, ran, states.JobComplete)
	if j.UserID != a.uid {
		t.Errorf("job %d UserID = %d, want %s's uid %d", ran, j.UserID, a.name, a.uid)
	}
	outPath := filepath.Join(dirA, fmt.Sprintf("slurm-%d.out", ran))
	out, err := os.ReadFile(outPath)
	if want := fmt.Sprintf("%d\n%d\n", a.uid, a.gid); err != nil || string(out) != want {
		t.Errorf("%s = %q (%v), want %q (the task runs as %s)", outPath, out, err, want, a.name)
	}
	if fi, err := os.Stat(outPath); err == nil {
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != a.uid || st.Gid != a.gid {
			t.Errorf("%s owned by %d:%d, want %d:%d", outPath, st.Uid, st.Gid, a.uid, a.gid)
		}
	}

	// B lists everyone's jobs (no PrivateData); finished jobs are hidden by default.
	o, e, code := runAs(t, c, b, dirB, "squeue", "-h", "-o", "%i %u %t")
	if want := fmt.Sprintf("%d %s PD\n", held, a.name); code != 0 || o != want {
		t.Errorf("squeue as %s = %q, %q, exit %d; want %q", b.name, o, e, code, want)
	}
	// ... but cannot cancel them.
	o, e, code = runAs(t, c, b, dirB, "scancel", fmt.Sprint(held))
	if want := fmt.Sprintf("scancel: error: Kill job error on job id %d: Access/permission denied\n", held); o != "" || e != want || code != 210 {
		t.Errorf("scancel of %s's job as %s = %q, %q, exit %d; want %q, exit 210", a.name, b.name, o, e, code, want)
	}
	if j := c.Job(t, held); j == nil || states.JobState(j.State).Base() != states.JobPending {
		t.Fatalf("job %d after another user's scancel = %+v, want still PENDING", held, j)
	}
	if o, e, code = runAs(t, c, a, dirA, "scancel", fmt.Sprint(held)); o != "" || e != "" || code != 0 {
		t.Errorf("scancel of own job as %s = %q, %q, exit %d", a.name, o, e, code)
	}
	c.WaitJob(t, held, states.JobCancelled)
}

// fixedSigner presents the same credential bytes on every request: a forger or a replayer.
type fixedSigner []byte

func (f fixedSigner) Sign([32]byte) ([]byte, error) { return f, nil }

// digestSigner signs with s, but over another message's digest.
type digestSigner struct{ s *auth.KeySigner }

func (d digestSigner) Sign([32]byte) ([]byte, error) { return d.s.Sign([32]byte{1, 2, 3}) }

// callCtld sends one job info request to the real slurmctld signed by s.
func callCtld(t *testing.T, c *cluster.Cluster, s wire.Signer) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := wire.Dial(ctx, "tcp", endpoints(t, c)[0].addr, wire.ClientOptions{Signer: s})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	return cl.Call(ctx, wire.MsgJobInfo, &wire.JobInfoRequest{}, &wire.JobInfoReply{})
}

func wantErrno(t *testing.T, what string, err error, errno int32) {
	t.Helper()
	var we *wire.Error
	if !errors.As(err, &we) || we.Errno != errno {
		t.Errorf("%s: got %v, want errno %d (%s)", what, err, errno, wire.NewError(errno).Text)
	}
}

// TestSecurity_ForgedCredentialsRefused: the real slurmctld refuses every credential it did
// not issue, or issued for something else, with SLURM_PROTOCOL_AUTHENTICATION_ERROR.
func TestSecurity_ForgedCredentialsRefused(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1})
	key, err := auth.LoadKey(auth.KeyPath(c.ConfPath))
	if err != nil {
		t.Fatal(err)
	}
	otherKey, err := auth.NewKey(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	expired := auth.NewKeySigner(key, 0, 0)
	expired.Now = func() time.Time { return time.Now().Add(-2 * time.Hour) }
	garbage := make([]byte, auth.MinCredentialLen+20)
	rand.Read(garbage)
	// A good credential, recorded once, is accepted once and refused when replayed.
	body, _ := wire.Marshal(&wire.JobInfoRequest{})
	recorded, err := auth.NewKeySigner(key, 0, 0).Sign(wire.BodyDigest(body))
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		s    wire.Signer
	}{
		{"no credential", nil},
		{"garbage", fixedSigner(garbage)},
		{"signed with another key", auth.NewKeySigner(otherKey, 0, 0)},
		{"expired", expired},
		{"issued for another message", digestSigner{auth.NewKeySigner(key, 0, 0)}},
	}
	for _, tc := range cases {
		wantErrno(t, tc.name, callCtld(t, c, tc.s), wire.ErrnoAuthentication)
	}
	if err := callCtld(t, c, fixedSigner(recorded)); err != nil {
		t.Fatalf("first use of a good credential: %v", err)
	}
	wantErrno(t, "replayed", callCtld(t, c, fixedSigner(recorded)), wire.ErrnoAuthentication)
	// A genuine client still gets through.
	if o, e, code := c.Run(t, "squeue", "-h"); code != 0 || e != "" {
		t.Errorf("squeue after forgeries = %q, %q, exit %d", o, e, code)
	}
}

// TestSecurity_NodeRefusesLaunchWithoutControllerCredential: a launch request that passes RPC
// authentication (signed by root with the real key) but carries no valid launch credential
// from the controller runs nothing.
func TestSecurity_NodeRefusesLaunchWithoutControllerCredential(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1})
	key, err := auth.LoadKey(auth.KeyPath(c.ConfPath))
	if err != nil {
		t.Fatal(err)
	}
	otherKey, _ := auth.NewKey(bytes.Repeat([]byte("x"), 32))
	forged, err := auth.NewLaunchSigner(otherKey).SignLaunch(auth.LaunchCred{JobID: 4242, NodeList: "n1", IssuedAt: time.Now().Unix(), Expiry: time.Now().Add(time.Minute).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(c.Dir, "launched")
	for _, tc := range []struct {
		name string
		cred []byte
	}{
		{"no launch credential", nil},
		{"launch credential signed with another key", forged},
		{"an RPC credential offered as a launch credential", mustSign(t, key)},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cl, err := wire.Dial(ctx, "tcp", endpoints(t, c)[1].addr, wire.ClientOptions{Signer: auth.NewKeySigner(key, 0, 0)})
		if err != nil {
			t.Fatal(err)
		}
		err = cl.Call(ctx, wire.MsgLaunchBatchJob, &wire.LaunchBatchJob{
			NodeName: "n1", Cred: tc.cred, JobID: 4242, UserID: 0, GroupID: 0, UserName: "root",
			NodeList: "n1", CPUsPerNode: []uint32{1}, NumTasks: 1, TimeLimit: 1, WorkDir: c.Dir,
			Script: "#!/bin/sh\ntouch " + marker + "\n", StdOut: filepath.Join(c.Dir, "forged.out"),
		}, nil)
		cl.Close()
		cancel()
		var we *wire.Error
		if !errors.As(err, &we) || !strings.Contains(we.Text, "Invalid job credential") {
			t.Errorf("%s: launch answered %v, want the node's \"Invalid job credential\" refusal", tc.name, err)
		}
	}
	// Give a wrongly accepted launch every chance to show: a real job runs after it.
	id := submit(t, c, "-J", "e2e_after", "--wrap", "true")
	c.WaitJob(t, id, states.JobComplete)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a forged launch ran its script")
	}
}

func mustSign(t *testing.T, key *auth.Key) []byte {
	t.Helper()
	b, err := auth.NewKeySigner(key, 0, 0).Sign([32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
