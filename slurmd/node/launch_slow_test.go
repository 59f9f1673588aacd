package node_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// slowStepdNode starts a slurmd with MessageTimeout=2 whose slurmstepd is a shell script
// that waits for the returned release function before it does what body says (REAL in body
// is the real slurmstepd): a start slower than the launch may wait, as a login shell loading
// a user's environment can be, for as long as the test wants.
func slowStepdNode(t *testing.T, body string) (f *fakeCtld, d *node.Daemon, release func()) {
	t.Helper()
	f = newCluster(t, 1)
	conf, err := os.ReadFile(f.conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.conf, append(conf, "MessageTimeout=2\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(f.conf)
	gate, wrapper := filepath.Join(dir, "gate"), filepath.Join(dir, "slow-slurmstepd")
	body = strings.ReplaceAll(body, "REAL", testbin.Path(t, "slurmd/slurmstepd"))
	script := "#!/bin/sh\ni=0; while [ ! -e " + gate + " ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n" + body + "\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	release = func() {
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(release) // a wrapper still waiting goes on and ends
	return f, node.StartTest(t, f.conf, node.Options{NodeNames: "n1", StepdPath: wrapper}), release
}

// TestLaunch_SlowStartIsAcknowledged: a slurmstepd that needs longer than the message
// timeout to start the script gets its launch acknowledged (as Slurm's slurmd answers
// before the job starts), a repeated launch meanwhile does not start the job twice, and the
// job then runs and reports its end. (The launch used to fail after the timeout while the
// slurmstepd went on to run the script anyway.)
func TestLaunch_SlowStartIsAcknowledged(t *testing.T) {
	f, d, release := slowStepdNode(t, `exec REAL "$@"`)
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 340
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	m := f.launch(job, "n1", uid, gid, "#!/bin/sh\necho ran >> "+runs+"\n", work)
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, m); err != nil {
		t.Fatalf("slow launch: %v; want it acknowledged", err)
	}
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, m); err != nil {
		t.Fatalf("repeated launch while starting: %v; want it acknowledged", err)
	}
	release()
	c := f.waitComplete(job)
	if c.LaunchFailed || c.WaitStatus != 0 {
		t.Fatalf("completion %+v; want a clean end", c)
	}
	b, err := os.ReadFile(runs)
	if err != nil || string(b) != "ran\n" {
		t.Fatalf("the script's runs file: %q, %v; want it run exactly once", b, err)
	}
}

// TestLaunch_SlowStartFailureIsReported: when a slurmstepd whose launch was already
// acknowledged fails to start the script, slurmd reports the job's end as a launch failure,
// with the slurmstepd's word, so the controller does not wait for a job that never runs.
func TestLaunch_SlowStartFailureIsReported(t *testing.T) {
	f, d, release := slowStepdNode(t, `echo "cannot chdir to /nonexistent" >&3; exit 1`)
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 341
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, "#!/bin/sh\ntrue\n", t.TempDir())); err != nil {
		t.Fatalf("slow launch: %v; want it acknowledged", err)
	}
	release()
	c := f.waitComplete(job)
	if !c.LaunchFailed || !strings.Contains(c.Text, "cannot chdir to /nonexistent") {
		t.Fatalf("completion %+v; want LaunchFailed with the slurmstepd's error", c)
	}
}

// TestLaunch_SlowStartThatHangsIsEnded: an acknowledged slurmstepd that never starts the
// script is killed after its time, and the job's end is reported as a launch failure, so
// the job does not stay running in the controller's eyes for ever.
func TestLaunch_SlowStartThatHangsIsEnded(t *testing.T) {
	node.SetSlowStartLimit(t, time.Second)
	f, d, release := slowStepdNode(t, `exec sleep 600`)
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 342
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, "#!/bin/sh\ntrue\n", t.TempDir())); err != nil {
		t.Fatalf("slow launch: %v; want it acknowledged", err)
	}
	release()
	c := f.waitComplete(job)
	if !c.LaunchFailed || !strings.Contains(c.Text, "did not start the script") {
		t.Fatalf("completion %+v; want LaunchFailed: the slurmstepd did not start the script", c)
	}
}
