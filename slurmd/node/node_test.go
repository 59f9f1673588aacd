package node_test

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

func TestDaemon_RegistersEveryHostedNode(t *testing.T) {
	f := newCluster(t, 4)
	d := startNode(t, f, "n[1-4]")
	for _, n := range []string{"n1", "n2", "n3", "n4"} {
		r := f.waitReg(n, func(r wire.NodeRegistration) bool { return r.NodeName == n })
		if r.Addr != d.Addr() || r.CPUs != 4 || r.RealMemory != 1000 || len(r.RunningJobs) != 0 {
			t.Errorf("%s registered as %+v; want addr %s, 4 CPUs, 1000 MB, no jobs", n, r, d.Addr())
		}
		if st, err := os.Stat(d.Spool(n)); err != nil || st.Mode().Perm() != 0755 || filepath.Base(d.Spool(n)) != n {
			t.Errorf("spool of %s: %v %v, want a 0755 directory named for the node", n, st, err)
		}
	}
}

func TestLaunch_RunsScriptAndReportsExit(t *testing.T) {
	f := newCluster(t, 2)
	d := startNode(t, f, "n[1-2]")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	cases := []struct {
		name, script, out string
		status            uint32 // wait status: rc<<8 | signal
	}{
		{"exit 0", "#!/bin/sh\necho hello from $SLURM_JOB_ID on $SLURMD_NODENAME\n[ \"$SLURM_TASK_PID\" = $$ ] && echo task pid ok\n",
			"hello from 101 on n2\ntask pid ok\n", 0},
		{"exit 3", "#!/bin/sh\necho failing >&2\nexit 3\n", "failing\n", 3 << 8},
		{"killed by 9", "#!/bin/sh\nkill -9 $$\n", "", 9},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			job := uint32(101 + i)
			work := t.TempDir()
			if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n2", uid, gid, c.script, work)); err != nil {
				t.Fatalf("launch: %v", err)
			}
			got := f.waitComplete(job)
			if got.WaitStatus != c.status || got.NodeName != "n2" || got.Cancelled || got.TimedOut {
				t.Errorf("completion %+v, want wait status %d from n2", got, c.status)
			}
			out, err := os.ReadFile(filepath.Join(work, "slurm-"+strconv.Itoa(int(job))+".out"))
			if err != nil || string(out) != c.out {
				t.Errorf("slurm-%d.out = %q (%v), want %q", job, out, err, c.out)
			}
		})
	}
}

func TestLaunch_RunsAsJobUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a job as another user")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody")
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	work, err := os.MkdirTemp("", "orbit-slurmd-user-") // t.TempDir's parent is closed to others
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	os.Chmod(work, 0777)
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(7, "n1", uint32(uid), uint32(gid), "#!/bin/sh\nid -u; id -g\n", work)); err != nil {
		t.Fatal(err)
	}
	if c := f.waitComplete(7); c.WaitStatus != 0 {
		t.Fatalf("completion %+v", c)
	}
	out, _ := os.ReadFile(filepath.Join(work, "slurm-7.out"))
	if want := nobody.Uid + "\n" + nobody.Gid + "\n"; string(out) != want {
		t.Errorf("job ran as %q, want %q", out, want)
	}
}

func TestLaunch_RefusesBadCredentialOrCaller(t *testing.T) {
	f := newCluster(t, 2)
	d := startNode(t, f, "n[1-2]")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	otherKey, err := auth.NewKey([]byte("another cluster's key, 32 bytes or more!"))
	if err != nil {
		t.Fatal(err)
	}
	sign := func(k *auth.Key, lc auth.LaunchCred) []byte {
		b, err := auth.NewLaunchSigner(k).SignLaunch(lc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		name   string
		cred   func(job uint32) []byte
		signer wire.Signer
		errno  int32
	}{
		{"forged", func(j uint32) []byte {
			return sign(otherKey, auth.LaunchCred{JobID: j, UID: uid, GID: gid, NodeList: "n1"})
		}, nil, 4004},
		{"expired", func(j uint32) []byte {
			return sign(f.key, auth.LaunchCred{JobID: j, UID: uid, GID: gid, NodeList: "n1", Expiry: time.Now().Add(-time.Hour).Unix()})
		}, nil, 4007},
		{"other node", func(j uint32) []byte {
			return sign(f.key, auth.LaunchCred{JobID: j, UID: uid, GID: gid, NodeList: "n2"})
		}, nil, 4004},
		{"other user", func(j uint32) []byte {
			return sign(f.key, auth.LaunchCred{JobID: j, UID: uid + 1, GID: gid, NodeList: "n1"})
		}, nil, 4004},
		{"other job", func(j uint32) []byte {
			return sign(f.key, auth.LaunchCred{JobID: j + 1000, UID: uid, GID: gid, NodeList: "n1"})
		}, nil, 4004},
		{"garbage", func(uint32) []byte { return []byte("not a credential") }, nil, 4004},
		{"unprivileged caller", func(j uint32) []byte {
			return sign(f.key, auth.LaunchCred{JobID: j, UID: uid, GID: gid, NodeList: "n1"})
		}, auth.NewKeySigner(f.key, 54321, 54321), wire.ErrnoAccessDenied},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			job := uint32(200 + i)
			work := t.TempDir()
			marker := filepath.Join(work, "ran")
			m := f.launch(job, "n1", uid, gid, "#!/bin/sh\ntouch "+marker+"\n", work)
			m.Cred = c.cred(job)
			signer := c.signer
			if signer == nil {
				signer = auth.NewKeySigner(f.key, uid, gid)
			}
			err := f.callAs(d.Addr(), wire.MsgLaunchBatchJob, m, signer)
			var we *wire.Error
			if !errors.As(err, &we) || we.Errno != c.errno {
				t.Fatalf("launch answered %v, want errno %d", err, c.errno)
			}
			if _, err := os.Stat(stepd.JobDir(d.Spool("n1"), job)); !os.IsNotExist(err) {
				t.Errorf("job directory exists after a refused launch (%v)", err)
			}
			if _, err := os.Stat(marker); !os.IsNotExist(err) {
				t.Errorf("the script ran")
			}
		})
	}
}

func TestTerminate_CancelledOrTimedOut(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	for i, timedOut := range []bool{false, true} {
		job := uint32(300 + i)
		work := t.TempDir()
		if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, "#!/bin/sh\necho started\nsleep 1000\n", work)); err != nil {
			t.Fatal(err)
		}
		f.askReg(d.Addr(), "n1", "listing the job", func(r wire.NodeRegistration) bool { return slices.Contains(r.RunningJobs, job) })
		if err := f.call(d.Addr(), wire.MsgTerminateJob, &wire.TerminateJob{NodeName: "n1", JobID: job, TimedOut: timedOut}); err != nil {
			t.Fatal(err)
		}
		c := f.waitComplete(job)
		if c.Cancelled == timedOut || c.TimedOut != timedOut || c.WaitStatus&0x7f != uint32(syscall.SIGTERM) {
			t.Errorf("timedOut=%v: completion %+v, want killed by SIGTERM", timedOut, c)
		}
		var we *wire.Error
		err := f.call(d.Addr(), wire.MsgTerminateJob, &wire.TerminateJob{NodeName: "n1", JobID: job})
		if !errors.As(err, &we) || we.Errno != 4002 {
			t.Errorf("terminating an ended job: %v, want ESLURMD_KILL_JOB_ALREADY_COMPLETE", err)
		}
	}
}

// TestTerminate_BeforeLaunchRefusesLateLaunch covers a terminate that overtakes its job's
// launch (the controller sends them on different connections): the late launch is refused
// and nothing runs.
func TestTerminate_BeforeLaunchRefusesLateLaunch(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 310
	var we *wire.Error
	err := f.call(d.Addr(), wire.MsgTerminateJob, &wire.TerminateJob{NodeName: "n1", JobID: job})
	if !errors.As(err, &we) || we.Errno != 4002 {
		t.Fatalf("terminating a job never launched: %v, want ESLURMD_KILL_JOB_ALREADY_COMPLETE", err)
	}
	work := t.TempDir()
	marker := filepath.Join(work, "ran")
	err = f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, "#!/bin/sh\ntouch "+marker+"\n", work))
	if !errors.As(err, &we) || we.Errno != 4002 {
		t.Fatalf("late launch of a terminated job: %v, want it refused with 4002", err)
	}
	// The launch was answered only after the node decided; had it started the script, the
	// step would be listed in the state files.
	if steps, _ := stepd.ListSteps(d.Spool("n1")); len(steps) != 0 {
		t.Errorf("steps on the node after a refused launch: %+v", steps)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the refused job's script ran")
	}
	// The job's next incarnation (requeued: one more restart) does run.
	again := f.launch(job, "n1", uid, gid, "#!/bin/sh\ntouch "+marker+"\n", work)
	again.Restarts = 1
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, again); err != nil {
		t.Fatalf("launch of the requeued job: %v", err)
	}
	if c := f.waitComplete(job); c.WaitStatus != 0 {
		t.Errorf("requeued job ended %+v, want exit 0", c)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the requeued job's script did not run: %v", err)
	}
}

// TestLaunch_RepeatAfterEndIsRefused covers a launch resent by a restarted controller after
// the job already ran and reported its end: it is refused and the job does not run again,
// while a later incarnation of the job (requeued) runs.
func TestLaunch_RepeatAfterEndIsRefused(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 320
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	script := "#!/bin/sh\necho ran >> " + runs + "\n"
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, script, work)); err != nil {
		t.Fatal(err)
	}
	f.waitComplete(job)
	// The completion was acknowledged; wait until slurmstepd has left (its state file gone).
	for i := 0; ; i++ {
		if _, err := os.Stat(stepd.StatePath(d.Spool("n1"), job, stepd.BatchStep)); os.IsNotExist(err) {
			break
		}
		if i == 500 {
			t.Fatal("slurmstepd never finished")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var we *wire.Error
	err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, script, work))
	if !errors.As(err, &we) || we.Errno != 4002 {
		t.Fatalf("repeated launch of a finished job: %v, want it refused with 4002", err)
	}
	again := f.launch(job, "n1", uid, gid, script, work)
	again.Restarts = 1
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, again); err != nil {
		t.Fatalf("launch of the requeued job: %v", err)
	}
	for i := 0; ; i++ {
		b, _ := os.ReadFile(runs)
		if n := strings.Count(string(b), "ran"); n == 2 {
			break
		} else if n > 2 || i == 500 {
			t.Fatalf("the job ran %d times, want 2 (the first run and the requeued one)", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSignal_BatchOnly(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	work := t.TempDir()
	script := "#!/bin/bash\ntrap 'echo got USR1; exit 0' USR1\necho ready > " + work + "/ready\nwhile :; do sleep 0.1; done\n"
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(400, "n1", uint32(os.Getuid()), uint32(os.Getgid()), script, work)); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(work + "/ready"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := f.call(d.Addr(), wire.MsgSignalJob, &wire.SignalJob{NodeName: "n1", JobID: 400, Signal: int32(syscall.SIGUSR1), Flags: wire.KillBatchOnly}); err != nil {
		t.Fatal(err)
	}
	if c := f.waitComplete(400); c.WaitStatus != 0 {
		t.Errorf("completion %+v, want exit 0 from the trap", c)
	}
	if out, _ := os.ReadFile(work + "/slurm-400.out"); string(out) != "got USR1\n" {
		t.Errorf("output %q", out)
	}
}

// TestRestart_Reattach kills the real slurmd binary with SIGKILL while a job runs: the job
// keeps running, the restarted slurmd reports it in RunningJobs, and its completion still
// reaches the controller.
func TestRestart_Reattach(t *testing.T) {
	f := newCluster(t, 1)
	slurmd := testbin.Path(t, "slurmd")
	testbin.Path(t, "slurmd/slurmstepd") // beside slurmd, where it looks
	start := func() *exec.Cmd {
		cmd := exec.Command(slurmd, "-D", "-f", f.conf, "-N", "n1")
		cmd.Env = append(os.Environ(), "SLURM_CONF="+f.conf)
		if testing.Verbose() {
			cmd.Stderr = os.Stderr
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	first := start()
	r := f.waitReg("from the first slurmd", func(r wire.NodeRegistration) bool { return r.NodeName == "n1" })
	work := t.TempDir()
	script := "#!/bin/sh\necho before\nwhile [ ! -e " + work + "/go ]; do sleep 0.05; done\necho after\n"
	if err := f.call(r.Addr, wire.MsgLaunchBatchJob, f.launch(500, "n1", uint32(os.Getuid()), uint32(os.Getgid()), script, work)); err != nil {
		t.Fatal(err)
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	spool := filepath.Join(f.dir, "spool", "n1")
	st, err := stepd.ReadState(stepd.StatePath(spool, 500, stepd.BatchStep))
	if err != nil || st.Ended() || !stepd.Alive(st) {
		t.Fatalf("after SIGKILL of slurmd the job's step is not running: %+v %v", st, err)
	}
	restarted := time.Now().Unix()
	start()
	r = f.waitReg("from the restarted slurmd listing job 500", func(r wire.NodeRegistration) bool {
		return r.SlurmdStart >= restarted && slices.Contains(r.RunningJobs, 500)
	})
	if err := os.WriteFile(work+"/go", nil, 0644); err != nil {
		t.Fatal(err)
	}
	if c := f.waitComplete(500); c.WaitStatus != 0 {
		t.Errorf("completion %+v", c)
	}
	if out, _ := os.ReadFile(work + "/slurm-500.out"); string(out) != "before\nafter\n" {
		t.Errorf("output %q", out)
	}
	r = f.askReg(r.Addr, "n1", "without job 500", func(r wire.NodeRegistration) bool {
		return r.SlurmdStart >= restarted && !slices.Contains(r.RunningJobs, 500)
	})
}

func BenchmarkBatchLaunchTrue(b *testing.B) {
	f := newCluster(b, 1)
	d := startNode(b, f, "n1")
	work := b.TempDir()
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	b.ResetTimer()
	for i := range b.N {
		job := uint32(1000 + i)
		if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, "#!/bin/sh\ntrue\n", work)); err != nil {
			b.Fatal(err)
		}
		if c := f.waitComplete(job); c.WaitStatus != 0 {
			b.Fatalf("completion %+v", c)
		}
	}
}
