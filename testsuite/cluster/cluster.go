// Package cluster starts a real Orbit cluster for tests: it writes slurm.conf and slurm.key
// into a temporary directory with loopback ports chosen by the OS, starts the real
// `slurmctld -D` and one `slurmd -D -N 'n[1-N]'` hosting every node (Orbit's bulk emulation
// form), waits until every node is IDLE, runs the real commands against it, and stops every
// process it started (and every job process they left) by PID when the test ends.
// Options.InProcess runs the two daemons in the test process instead (inprocess.go), which
// is cheaper; slurmstepd and the commands are real processes in both modes.
//
// Only tests import this package. It may import conf/, compat/, internal/ (wire, auth,
// cmdclient, testbin), and the daemons' packages slurmctld/ctld and slurmd/node for
// in-process mode only.
package cluster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// Options shape a test cluster; zero fields take the defaults in brackets.
type Options struct {
	Nodes       int    // emulated nodes n1..nN [4]
	CPUsPerNode int    // CPUs of each node [4]
	MinJobAge   int    // seconds a finished job stays in squeue [2]
	ClusterName string // [orbit-test]
	// ExtraConf is appended to slurm.conf before the node and partition lines.
	ExtraConf string
	// Partitions is appended after the default partition (debug, every node): more
	// PartitionName lines.
	Partitions string
	// Node shape, for tests that compare with a reference whose node is not the default
	// "CPUs=N RealMemory=1000" one (see testsuite/scenario, testsuite/sinfo): when Sockets is
	// set the node line says Sockets/CoresPerSocket/ThreadsPerCore instead of CPUs=.
	Sockets        int // sockets per node [unset: CPUs=CPUsPerNode]
	CoresPerSocket int // [1 when Sockets is set]
	ThreadsPerCore int // [1 when Sockets is set]
	// SelectTypeParameters of select/cons_tres [CR_CPU].
	SelectTypeParameters string
	RealMemory           int    // MB per node [1000]
	NodeHostname         string // NodeHostname= of every node [unset: the node name]
	// ControllerHost is the name in SlurmctldHost=NAME(127.0.0.1) [localhost].
	ControllerHost string
	// InProcess starts the controller (slurmctld/ctld) and the node daemon (slurmd/node) in
	// the test process rather than as the slurmctld and slurmd binaries. KillController then
	// closes the controller cleanly (it cannot SIGKILL itself): tests that need a real crash
	// use the binaries.
	InProcess bool
	// Munge runs the cluster with AuthType=auth/munge and CredType=cred/munge against a
	// private munged (munge.go) and writes no slurm.key.
	Munge bool
	// TaskPlugin is slurm.conf's TaskPlugin [task/none].
	TaskPlugin string
	// CgroupConf, when set, is written as cgroup.conf beside slurm.conf.
	CgroupConf string
}

// Bound on waits for the cluster to reach a state: a guard against hanging tests, never a
// performance expectation.
const waitBound = 60 * time.Second

// Cluster is a running test cluster.
type Cluster struct {
	Dir      string // the temporary directory holding everything
	ConfPath string // its slurm.conf
	WorkDir  string // where Run runs commands (jobs' default output directory)
	Opts     Options

	binDir string
	ctld   *exec.Cmd
	slurmd *exec.Cmd
	client *cmdclient.Client
	in     *inProcess // the daemons when Opts.InProcess
	// mungeSocket is the private munged's socket when Opts.Munge.
	mungeSocket string
	// failures noted by Errorf and Fatalf, repeated after the logs (failure.go).
	failMu   sync.Mutex
	failures []string
}

// Start writes the configuration, starts the daemons and waits until every node is IDLE.
func Start(t testing.TB, opts Options) *Cluster {
	t.Helper()
	if opts.Nodes <= 0 {
		opts.Nodes = 4
	}
	if opts.CPUsPerNode <= 0 {
		opts.CPUsPerNode = 4
	}
	if opts.MinJobAge <= 0 {
		opts.MinJobAge = 2
	}
	if opts.ClusterName == "" {
		opts.ClusterName = "orbit-test"
	}
	if opts.RealMemory <= 0 {
		opts.RealMemory = 1000
	}
	if opts.ControllerHost == "" {
		opts.ControllerHost = "localhost"
	}
	if opts.Sockets > 0 {
		opts.CoresPerSocket = max(opts.CoresPerSocket, 1)
		opts.ThreadsPerCore = max(opts.ThreadsPerCore, 1)
		opts.CPUsPerNode = opts.Sockets * opts.CoresPerSocket * opts.ThreadsPerCore
	}
	c := &Cluster{Dir: t.TempDir(), Opts: opts}
	c.ConfPath = filepath.Join(c.Dir, "slurm.conf")
	c.WorkDir = filepath.Join(c.Dir, "work")
	for _, d := range []string{"state", "spool", "log", "run", "work"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if opts.Munge {
		c.mungeSocket = startMunged(t, filepath.Join(c.Dir, "munge"))
	}
	if err := os.WriteFile(c.ConfPath, []byte(c.conf(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	if opts.CgroupConf != "" {
		if err := os.WriteFile(filepath.Join(c.Dir, "cgroup.conf"), []byte(opts.CgroupConf), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !opts.Munge {
		if _, err := auth.GenerateKey(auth.KeyPath(c.ConfPath)); err != nil {
			t.Fatal(err)
		}
	}
	// Build everything first: the daemons find slurmstepd beside slurmd.
	bins := []string{"slurmctld", "slurmd", "slurmd/slurmstepd", "sbatch", "squeue", "scancel"}
	if opts.InProcess {
		bins = bins[2:]
	}
	for _, b := range bins {
		c.binDir = filepath.Dir(testbin.Path(t, b))
	}
	var err error
	if c.client, err = cmdclient.Load("test", c.ConfPath); err != nil {
		t.Fatalf("cluster: loading the written slurm.conf: %v", err)
	}
	c.client.ConnectRetries = 1
	t.Cleanup(func() { c.stop(t) })

	if opts.InProcess {
		c.startInProcess(t)
	} else {
		c.ctld = c.startDaemon(t, "slurmctld", "-D", "-f", c.ConfPath)
		c.slurmd = c.startDaemon(t, "slurmd", "-D", "-f", c.ConfPath, "-N", fmt.Sprintf("n[1-%d]", opts.Nodes))
	}
	c.WaitNodesIdle(t)
	return c
}

// conf renders slurm.conf for this cluster.
func (c *Cluster) conf(t testing.TB) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	ports := FreePorts(t, 2)
	ctldPort, slurmdPort := ports[0], ports[1]
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by testsuite/cluster for %s\n", t.Name())
	fmt.Fprintf(&b, "ClusterName=%s\n", c.Opts.ClusterName)
	fmt.Fprintf(&b, "SlurmctldHost=%s(127.0.0.1)\n", c.Opts.ControllerHost)
	fmt.Fprintf(&b, "SlurmctldPort=%d\nSlurmdPort=%d\n", ctldPort, slurmdPort)
	fmt.Fprintf(&b, "SlurmUser=%s\n", u.Username)
	if c.Opts.Munge {
		fmt.Fprintf(&b, "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%s\n", c.mungeSocket)
	} else {
		fmt.Fprintf(&b, "AuthType=auth/slurm\nCredType=cred/slurm\nAuthInfo=socket=%s\n", filepath.Join(c.Dir, "run", "sack.socket"))
	}
	fmt.Fprintf(&b, "StateSaveLocation=%s\n", filepath.Join(c.Dir, "state"))
	fmt.Fprintf(&b, "SlurmdSpoolDir=%s\n", filepath.Join(c.Dir, "spool", "%n"))
	fmt.Fprintf(&b, "SlurmctldPidFile=%s\nSlurmdPidFile=%s\n", filepath.Join(c.Dir, "run", "slurmctld.pid"), filepath.Join(c.Dir, "run", "slurmd-%n.pid"))
	fmt.Fprintf(&b, "SlurmctldLogFile=%s\nSlurmdLogFile=%s\n", filepath.Join(c.Dir, "log", "slurmctld.log"), filepath.Join(c.Dir, "log", "slurmd-%n.log"))
	fmt.Fprintf(&b, "SlurmctldDebug=debug\nSlurmdDebug=debug\n")
	taskPlugin := c.Opts.TaskPlugin
	if taskPlugin == "" {
		taskPlugin = "task/none"
	}
	fmt.Fprintf(&b, "ProctrackType=proctrack/linuxproc\nTaskPlugin=%s\n", taskPlugin)
	fmt.Fprintf(&b, "SelectType=select/cons_tres\nSelectTypeParameters=%s\n", cmp.Or(c.Opts.SelectTypeParameters, "CR_CPU"))
	fmt.Fprintf(&b, "MinJobAge=%d\nKillWait=2\nReturnToService=2\n", c.Opts.MinJobAge)
	if c.Opts.ExtraConf != "" {
		b.WriteString(strings.TrimRight(c.Opts.ExtraConf, "\n") + "\n")
	}
	fmt.Fprintf(&b, "NodeName=n[1-%d]", c.Opts.Nodes)
	if c.Opts.NodeHostname != "" {
		fmt.Fprintf(&b, " NodeHostname=%s", c.Opts.NodeHostname)
	}
	fmt.Fprintf(&b, " NodeAddr=127.0.0.1 Port=%d", slurmdPort)
	if c.Opts.Sockets > 0 {
		fmt.Fprintf(&b, " Sockets=%d CoresPerSocket=%d ThreadsPerCore=%d", c.Opts.Sockets, c.Opts.CoresPerSocket, c.Opts.ThreadsPerCore)
	} else {
		fmt.Fprintf(&b, " CPUs=%d", c.Opts.CPUsPerNode)
	}
	fmt.Fprintf(&b, " RealMemory=%d State=UNKNOWN\n", c.Opts.RealMemory)
	fmt.Fprintf(&b, "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n")
	b.WriteString(c.Opts.Partitions)
	return b.String()
}

// FreePorts are n distinct loopback ports the OS says are free now. The listeners are held
// until all are chosen: one closed before the next is asked for may be handed out again
// (the controller and slurmd then collide on one port).
func FreePorts(t testing.TB, n int) []int {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// env is the environment of every process the cluster starts.
func (c *Cluster) env() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SBATCH_") || strings.HasPrefix(kv, "SQUEUE_")
	})
	// Orbit's commands come first on PATH, as on an installed cluster: a job script's srun or
	// scontrol must be Orbit's, not a Slurm installed on the machine.
	for i, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + c.binDir + ":" + p
		}
	}
	return append(env, "SLURM_CONF="+c.ConfPath)
}

// daemonEnv is env plus what only the node daemon reads: the emulation's dead-node list.
func (c *Cluster) daemonEnv(name string) []string {
	env := c.env()
	if name == "slurmd" {
		env = append(env, node.DeadNodesEnv+"="+c.deadNodesFile())
	}
	return env
}

func (c *Cluster) startDaemon(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(filepath.Join(c.binDir, name), args...)
	cmd.Env = c.daemonEnv(name)
	cmd.Dir = c.Dir
	out, err := os.OpenFile(filepath.Join(c.Dir, "log", name+".stderr"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("cluster: starting %s: %v", name, err)
	}
	out.Close()
	return cmd
}

// WaitNodesIdle waits until the controller answers and reports every node IDLE.
func (c *Cluster) WaitNodesIdle(t testing.TB) {
	t.Helper()
	var last string
	deadline := time.Now().Add(c.startBound())
	for time.Now().Before(deadline) {
		var rep wire.NodeInfoReply
		err := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep)
		if err == nil {
			idle := 0
			var st []string
			for _, n := range rep.Nodes {
				s := states.NodeState(n.State)
				st = append(st, n.Name+"="+s.String())
				if s&states.NodeStateBase == states.NodeIdle && s&^states.NodeStateBase == 0 {
					idle++
				}
			}
			if idle == c.Opts.Nodes && len(rep.Nodes) == c.Opts.Nodes {
				return
			}
			last = strings.Join(st, " ")
		} else {
			last = err.Error()
		}
		c.checkAlive(t)
		time.Sleep(c.pollInterval())
	}
	c.Fatalf(t, "cluster: nodes not all IDLE after %v: %s", c.startBound(), last)
}

// checkAlive fails the test at once when a daemon has exited.
func (c *Cluster) checkAlive(t testing.TB) {
	t.Helper()
	if c.in != nil {
		if err := c.in.exited(); err != nil {
			c.Fatalf(t, "cluster: the in-process slurmctld stopped serving: %v", err)
		}
		return
	}
	for _, d := range []*exec.Cmd{c.ctld, c.slurmd} {
		if d == nil {
			continue
		}
		var ws syscall.WaitStatus
		pid, _ := syscall.Wait4(d.Process.Pid, &ws, syscall.WNOHANG, nil)
		if pid == d.Process.Pid {
			c.Fatalf(t, "cluster: %s exited (%v) while the cluster was starting", filepath.Base(d.Path), exitText(ws))
		}
	}
}

func exitText(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return "exit status " + strconv.Itoa(ws.ExitStatus())
}

// call makes one request to the controller with the cluster's configuration.
func (c *Cluster) call(t wire.MsgType, req, resp any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.client.MessageTimeout)
	defer cancel()
	return c.client.Call(ctx, t, req, resp)
}

// Jobs returns the controller's job table.
func (c *Cluster) Jobs(t testing.TB) []wire.JobInfo {
	t.Helper()
	var rep wire.JobInfoReply
	if err := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{}, &rep); err != nil {
		c.Fatalf(t, "cluster: job info: %v", err)
	}
	return rep.Jobs
}

// Job returns job id from the controller, or nil when it does not know it.
func (c *Cluster) Job(t testing.TB, id uint32) *wire.JobInfo {
	t.Helper()
	var rep wire.JobInfoReply
	err := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{id}}, &rep)
	if e := cmdclient.AsError(err); e != nil && e.Errno == cmdclient.ErrnoInvalidJobID {
		return nil
	} else if err != nil {
		c.Fatalf(t, "cluster: job info %d: %v", id, err)
	}
	for i := range rep.Jobs {
		if rep.Jobs[i].JobID == id {
			return &rep.Jobs[i]
		}
	}
	return nil
}

// WaitJob waits until job id is in one of the base states given and returns it.
func (c *Cluster) WaitJob(t testing.TB, id uint32, want ...states.JobState) *wire.JobInfo {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	last := "unknown to the controller"
	for time.Now().Before(deadline) {
		if j := c.Job(t, id); j != nil {
			st := states.JobState(j.State)
			if slices.Contains(want, st.Base()) && !st.IsCompleting() {
				return j
			}
			last = st.String()
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.Fatalf(t, "cluster: job %d still %s after %v, want one of %v", id, last, waitBound, want)
	return nil
}

// WaitGone waits until the controller no longer lists job id (MinJobAge passed).
func (c *Cluster) WaitGone(t testing.TB, id uint32) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for time.Now().Before(deadline) {
		if c.Job(t, id) == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	c.Fatalf(t, "cluster: job %d still listed after %v", id, waitBound)
}

// Run runs Orbit's command name (sbatch, squeue, ...) with args in WorkDir against this
// cluster and returns its stdout, stderr and exit status.
func (c *Cluster) Run(t testing.TB, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return c.RunEnv(t, nil, name, args...)
}

// RunEnv is Run with extra "NAME=value" environment entries.
func (c *Cluster) RunEnv(t testing.TB, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testbin.Path(t, name), args...)
	cmd.Env = append(c.env(), env...)
	cmd.Dir = c.WorkDir
	return RunCommand(t, cmd)
}

// RunNamed is Run with argv[0] the bare name, as a command found on PATH sees it (and as
// the reference recordings were made): getopt's complaints name the program so.
func (c *Cluster) RunNamed(t testing.TB, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testbin.Path(t, name), args...)
	cmd.Args[0] = name
	cmd.Env = c.env()
	cmd.Dir = c.WorkDir
	return RunCommand(t, cmd)
}

// RunCommand runs cmd as its caller set it up (environment, directory, credentials) and
// returns its stdout, stderr and exit status; a command that cannot be started fails the test.
func RunCommand(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("cluster: running %s: %v", cmd.Path, err)
	}
	return o.String(), e.String(), code
}

// KillController kills slurmctld with SIGKILL, as a crash would, and reaps it. In-process
// it closes the controller cleanly instead: not a crash.
func (c *Cluster) KillController(t testing.TB) {
	t.Helper()
	if c.in != nil {
		c.in.closeCtld()
		return
	}
	if c.ctld == nil {
		return
	}
	c.ctld.Process.Kill()
	c.ctld.Wait()
	c.ctld = nil
}

// RestartController starts slurmctld again (after KillController; in-process, a new
// controller over the same state) and waits until every node is IDLE or allocated again,
// that is until the controller answers.
func (c *Cluster) RestartController(t testing.TB) {
	t.Helper()
	if c.in != nil {
		c.in.closeCtld()
		c.startCtldInProcess(t)
	} else {
		if c.ctld != nil {
			c.KillController(t)
		}
		c.ctld = c.startDaemon(t, "slurmctld", "-D", "-f", c.ConfPath)
	}
	deadline := time.Now().Add(waitBound)
	for time.Now().Before(deadline) {
		var rep wire.NodeInfoReply
		if err := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err == nil {
			return
		}
		c.checkAlive(t)
		time.Sleep(100 * time.Millisecond)
	}
	c.Fatalf(t, "cluster: restarted slurmctld does not answer after %v", waitBound)
}

// stop ends the daemons (SIGTERM, a bounded wait, SIGKILL) and then every process still
// running with this cluster's SLURM_CONF in its environment (slurmstepd and job tasks, which
// outlive slurmd by design).
func (c *Cluster) stop(t testing.TB) {
	if t.Failed() {
		c.dumpLogs(t)
		c.summary(t) // failure.go: last, where a CI log's tail shows it
	}
	if c.in != nil {
		c.in.stop()
	}
	for _, d := range []*exec.Cmd{c.slurmd, c.ctld} {
		if d == nil {
			continue
		}
		d.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { d.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			d.Process.Kill()
			<-done
		}
	}
	c.slurmd, c.ctld = nil, nil
	for _, pid := range c.strays() {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// strays lists the processes whose environment names this cluster's slurm.conf (job tasks;
// slurmstepd, which slurmd starts with SLURM_CONF alone of the cluster's settings) or whose
// command line names a file in the cluster's directory (a slurmstepd given its launch file).
func (c *Cluster) strays() []int {
	want := []byte("SLURM_CONF=" + c.ConfPath + "\x00")
	inDir := []byte(c.Dir + string(filepath.Separator))
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, want) {
			pids = append(pids, pid)
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, inDir) {
			pids = append(pids, pid)
		}
	}
	return pids
}
