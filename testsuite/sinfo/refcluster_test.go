package sinfo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
	"github.com/orbit-hpc/orbit/slurmd/node"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// waitBound guards every wait against a hang; it is never a performance expectation.
const waitBound = 60 * time.Second

// refCluster is an in-process Orbit controller and node daemon configured like the
// reference's slurm.conf (testsuite/cluster writes its own node shape, which differs from the
// reference's in sockets, cores and memory, so this test writes the configuration itself).
type refCluster struct {
	dir, conf string
	client    *cmdclient.Client
}

// refConf is the reference's node and partition lines (see /tmp/slurm-anchor/etc/slurm.conf
// written by ../shared/reference-slurm/up.sh), on loopback ports of our own.
func refConf(dir string, ctldPort, nodePort int) string {
	return fmt.Sprintf(`ClusterName=anchor
SlurmctldHost=vm(127.0.0.1)
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/slurm
CredType=cred/slurm
StateSaveLocation=%s
SlurmdSpoolDir=%s
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=n1 NodeHostname=vm NodeAddr=127.0.0.1 Port=%d Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=257000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, ctldPort, nodePort, filepath.Join(dir, "state"), filepath.Join(dir, "spool", "%n"), nodePort)
}

// startRefCluster starts the daemons and waits until n1 is IDLE.
func startRefCluster(t *testing.T) *refCluster {
	t.Helper()
	rc := &refCluster{dir: t.TempDir()}
	for _, d := range []string{"state", "spool", "work"} {
		if err := os.MkdirAll(filepath.Join(rc.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rc.conf = filepath.Join(rc.dir, "slurm.conf")
	ports := cluster.FreePorts(t, 2)
	if err := os.WriteFile(rc.conf, []byte(refConf(rc.dir, ports[0], ports[1])), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.GenerateKey(auth.KeyPath(rc.conf)); err != nil {
		t.Fatal(err)
	}
	stepd := testbin.Path(t, "slurmd/slurmstepd")
	t.Cleanup(func() { rc.killStrays() })
	ctld.StartTest(t, rc.conf)
	node.StartTest(t, rc.conf, node.Options{NodeNames: "n1", StepdPath: stepd, Listen: "127.0.0.1:" + strconv.Itoa(ports[1])})
	var err error
	if rc.client, err = cmdclient.Load("test", rc.conf); err != nil {
		t.Fatal(err)
	}
	rc.waitNode(t, func(n *wire.NodeInfo) bool { return states.NodeState(n.State) == states.NodeIdle })
	return rc
}

// nodeInfo returns the controller's record of n1.
func (rc *refCluster) nodeInfo(t *testing.T) *wire.NodeInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var rep wire.NodeInfoReply
	if err := rc.client.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil || len(rep.Nodes) != 1 {
		return nil
	}
	return &rep.Nodes[0]
}

func (rc *refCluster) waitNode(t *testing.T, ok func(*wire.NodeInfo) bool) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	var last *wire.NodeInfo
	for time.Now().Before(deadline) {
		if last = rc.nodeInfo(t); last != nil && ok(last) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("node n1 did not reach the wanted state within %v: %+v", waitBound, last)
}

// allocate submits a job holding cpus CPUs of n1 until the test ends, and waits until the
// controller counts them.
func (rc *refCluster) allocate(t *testing.T, cpus int) {
	t.Helper()
	if cpus == 0 {
		return
	}
	out, errOut, code := rc.run(t, nil, "sbatch", "--parsable", "-n", strconv.Itoa(cpus), "-o", "/dev/null", "--wrap", "sleep 600")
	if code != 0 {
		t.Fatalf("sbatch: exit %d: %s%s", code, out, errOut)
	}
	id := string(bytes.TrimSpace([]byte(out)))
	t.Cleanup(func() { rc.run(t, nil, "scancel", id) })
	rc.waitNode(t, func(n *wire.NodeInfo) bool { return int(n.AllocCPUs) == cpus })
}

// run runs Orbit's command name as "name" (argv[0], as a user types it) against the cluster,
// with env added to a clean environment.
func (rc *refCluster) run(t *testing.T, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	path := testbin.Path(t, name)
	cmd := &exec{path: path, argv0: name, args: args, dir: filepath.Join(rc.dir, "work"),
		env: append([]string{"SLURM_CONF=" + rc.conf, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=" + os.Getenv("TZ")}, env...)}
	return cmd.run(t)
}

// killStrays kills what the job left (slurmstepd and its task outlive slurmd by design):
// every process whose environment or command line names this cluster's directory.
func (rc *refCluster) killStrays() {
	want := []byte(rc.dir + string(filepath.Separator))
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(env, want) || bytes.Contains(cmdline, want) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
