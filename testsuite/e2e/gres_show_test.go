package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// startGresCluster starts two nodes with gpu:2 each and gres.conf naming their device files
// (the controller reads gres.conf at start, so it is restarted once the file is written).
func startGresCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, MinJobAge: 300,
		ExtraConf: "GresTypes=gpu\nAccountingStorageType=accounting_storage/orbit\nAccountingStorageTRES=gres/gpu\nNodeName=DEFAULT Gres=gpu:2\n"})
	if err := os.WriteFile(filepath.Join(c.Dir, "gres.conf"), []byte("NodeName=n[1-2] Name=gpu File=/dev/nvidia[0-1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.KillController(t)
	c.RestartController(t)
	c.WaitNodesIdle(t)
	testbin.Path(t, "srun") // built before any job runs: jobs find Orbit's srun first on PATH
	return c
}

// waitFile waits for a file a job writes, ending in a newline, and returns its text.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return string(b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no %s", path)
	return ""
}

// TestGresShow: what the commands show of GRES (Slurm 22.05's printers, checked against its
// source: the shared reference has no GresTypes). scontrol -d show node adds GresDrain=N/A
// and GresUsed=; sinfo -O GresUsed splits nodes by it; scontrol show job prints
// TresPerNode=, and with -d JOB_GRES= and each node's GRES=gpu:N(IDX:...).
func TestGresShow(t *testing.T) {
	c := startGresCluster(t)
	node := func(args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "scontrol", args...)
		if code != 0 {
			t.Fatalf("scontrol %v: exit %d, %s", args, code, errOut)
		}
		return out
	}
	if out := node("show", "node", "n1"); strings.Contains(out, "GresUsed") || strings.Contains(out, "GresDrain") {
		t.Errorf("scontrol show node without -d shows GRES usage:\n%s", out)
	}
	if out := node("-d", "show", "node", "n1"); !strings.Contains(out, "   Gres=gpu:2\n   GresDrain=N/A\n   GresUsed=gpu:0\n   NodeAddr=") {
		t.Errorf("scontrol -d show node n1: no Gres/GresDrain/GresUsed lines:\n%s", out)
	}
	sinfo := func() string {
		out, errOut, code := c.Run(t, "sinfo", "-h", "-N", "-O", "NodeList:4,Gres:8,GresUsed:8")
		if code != 0 {
			t.Fatalf("sinfo -O GresUsed: exit %d, %s", code, errOut)
		}
		return out
	}
	if got, want := sinfo(), "n1  gpu:2   gpu:0   \nn2  gpu:2   gpu:0   \n"; got != want {
		t.Errorf("idle sinfo -O NodeList,Gres,GresUsed:\n%q\nwant\n%q", got, want)
	}

	release := filepath.Join(c.WorkDir, "release")
	script := filepath.Join(c.WorkDir, "hold.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho started > held.$SLURM_JOB_ID\n"+
		"i=0; while [ ! -e "+release+" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := submitGres(t, c, "gres_show", "gpu:2", script)
	j := c.WaitJob(t, id, states.JobRunning)
	waitFile(t, filepath.Join(c.WorkDir, "held."+strconv.Itoa(int(id))))
	show := node("-d", "show", "job", strconv.Itoa(int(id)))
	for _, want := range []string{
		"\n   JOB_GRES=gpu:2\n     Nodes=" + j.NodeList + " CPU_IDs=0 Mem=0 GRES=gpu:2(IDX:0-1)\n",
		"\n   Power=\n   TresPerNode=gres:gpu:2\n",
	} {
		if !strings.Contains(show, want) {
			t.Errorf("scontrol -d show job: no %q:\n%s", want, show)
		}
	}
	if out := node("-d", "show", "node", j.NodeList); !strings.Contains(out, "   GresUsed=gpu:2\n") {
		t.Errorf("scontrol -d show node %s while the job holds both GPUs:\n%s", j.NodeList, out)
	}
	other := "n2"
	if j.NodeList == "n2" {
		other = "n1"
	}
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(sinfo()), "\n") {
		if f := strings.Fields(l); len(f) == 3 {
			lines[f[0]] = f[1] + " " + f[2]
		}
	}
	if lines[j.NodeList] != "gpu:2 gpu:2" || lines[other] != "gpu:2 gpu:0" {
		t.Errorf("busy sinfo -O NodeList,Gres,GresUsed: %q", lines)
	}

	// --gpus-per-node=N is --gres=gpu:N (Slurm's tres_per_node "gres:gpu:N").
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-J", "gres_gpn", "--gpus-per-node=1", "-o", "/dev/null", script)
	if code != 0 {
		t.Fatalf("sbatch --gpus-per-node=1: exit %d, %s", code, errOut)
	}
	gpn, _ := strconv.Atoi(strings.TrimSpace(out))
	jg := c.WaitJob(t, uint32(gpn), states.JobRunning)
	if jg.NodeList != other {
		t.Errorf("--gpus-per-node=1 job on %s, want %s (the node with free GPUs)", jg.NodeList, other)
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-j", strconv.Itoa(gpn), "-o", "%b"); strings.TrimSpace(out) != "gres:gpu:1" {
		t.Errorf("--gpus-per-node=1: squeue %%b = %q, want gres:gpu:1", out)
	}
	// The GPU options Orbit does not model are refused by name, nothing submitted (--gpus,
	// --gpus-per-task, --cpus-per-gpu and --mem-per-gpu: gpu_options_test.go).
	for _, opt := range []string{"--gpus-per-socket=1", "--ntasks-per-gpu=1"} {
		out, errOut, code := c.Run(t, "sbatch", "-J", "gres_refused", opt, "--wrap", "true")
		name, _, _ := strings.Cut(opt, "=")
		if code != 1 || out != "" || !strings.Contains(errOut, name+" is not supported by Orbit yet") {
			t.Errorf("sbatch %s: exit %d, stdout %q, stderr %q; want exit 1 naming %s", opt, code, out, errOut, name)
		}
	}
	// GPU frequencies Orbit does not set and per-task GPU binding it does not do: refused by
	// name on a cluster with GPUs (elsewhere Slurm only stores them), nothing submitted.
	for _, cmd := range [][]string{{"sbatch", "--gpu-freq=high", "--wrap", "true"}, {"sbatch", "--gpu-bind=closest", "--wrap", "true"},
		{"srun", "--gpu-bind=closest", "true"}} {
		name, _, _ := strings.Cut(cmd[1], "=")
		want := cmd[0] + ": error: " + name + " on a cluster with GPUs is not supported by Orbit's " + cmd[0] + " yet\n"
		out, errOut, code := c.Run(t, cmd[0], cmd[1:]...)
		if code != 1 || out != "" || errOut != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(cmd, " "), code, out, errOut, want)
		}
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.WaitJob(t, id, states.JobComplete)
	c.WaitJob(t, uint32(gpn), states.JobComplete)
	if out := node("-d", "show", "node", j.NodeList); !strings.Contains(out, "   GresUsed=gpu:0\n") {
		t.Errorf("scontrol -d show node %s after the job ended:\n%s", j.NodeList, out)
	}
	// sacct's AllocTRES and ReqTRES carry the tracked GRES (AccountingStorageTRES=gres/gpu),
	// the elements sorted by name as sacct prints them.
	out, errOut, code = c.Run(t, "sacct", "-j", strconv.Itoa(int(id)), "-X", "-n", "-P", "-o", "AllocTRES,ReqTRES")
	if want := "billing=1,cpu=1,gres/gpu=2,node=1|billing=1,cpu=1,gres/gpu=2,node=1\n"; code != 0 || out != want {
		t.Errorf("sacct -o AllocTRES,ReqTRES: exit %d, %q (stderr %q); want %q", code, out, errOut, want)
	}
}

// TestGresSteps: srun inside a job with GRES (Slurm's step_create): a step asking more than
// the job holds on a node, or a GRES the job has not, fails with Slurm's text and exit 1; a
// step within the job's GRES, with --gres=none, or without --gres runs.
func TestGresSteps(t *testing.T) {
	c := startGresCluster(t)
	script := filepath.Join(c.WorkDir, "steps.sh")
	body := "#!/bin/sh\n"
	for _, s := range []struct{ name, gres string }{{"more", "--gres=gpu:3"}, {"one", "--gres=gpu:1"}, {"two", "--gres=gpu:2"},
		{"none", "--gres=none"}, {"all", ""}} {
		body += "srun " + s.gres + " true > step_" + s.name + ".out 2>&1; echo \"exit $?\" >> step_" + s.name + ".out\n"
	}
	// The devices each step sees: the batch step holds 0,1; a step's own are in its
	// environment whatever the batch shell's say.
	for _, s := range []struct{ name, gres string }{{"one", "--gres=gpu:1"}, {"all", ""}} {
		body += "srun " + s.gres + " sh -c 'echo \"$CUDA_VISIBLE_DEVICES|$SLURM_STEP_GPUS|$SLURM_GPUS_ON_NODE\"' > env_" + s.name + ".out 2>&1\n"
	}
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	id := submitGres(t, c, "gres_steps", "gpu:2", script)
	c.WaitJob(t, id, states.JobComplete, states.JobFailed)
	for name, want := range map[string]string{
		"more": "srun: error: Unable to create step for job " + strconv.Itoa(int(id)) + ": Invalid generic resource (gres) specification\nexit 1\n",
		"one":  "exit 0\n", "two": "exit 0\n", "none": "exit 0\n", "all": "exit 0\n",
	} {
		if got := waitFile(t, filepath.Join(c.WorkDir, "step_"+name+".out")); got != want {
			t.Errorf("step %s: %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{"one": "0|0|1\n", "all": "0,1|0,1|2\n"} {
		if got := waitFile(t, filepath.Join(c.WorkDir, "env_"+name+".out")); got != want {
			t.Errorf("step %s: CUDA_VISIBLE_DEVICES|SLURM_STEP_GPUS|SLURM_GPUS_ON_NODE = %q, want %q", name, got, want)
		}
	}
	// A job without GRES: a step asking for a GPU is refused the same way.
	plain := filepath.Join(c.WorkDir, "plain.sh")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\nsrun --gres=gpu:1 true > plain.out 2>&1; echo \"exit $?\" >> plain.out\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-J", "gres_plain", "-o", "/dev/null", plain)
	if code != 0 {
		t.Fatalf("sbatch: exit %d, %s", code, errOut)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	c.WaitJob(t, uint32(pid), states.JobComplete, states.JobFailed)
	if got, want := waitFile(t, filepath.Join(c.WorkDir, "plain.out")),
		"srun: error: Unable to create step for job "+strconv.Itoa(pid)+": Invalid generic resource (gres) specification\nexit 1\n"; got != want {
		t.Errorf("step --gres=gpu:1 in a job without GRES: %q, want %q", got, want)
	}
}

// TestGresReconfigure: `scontrol reconfigure` with a changed Gres= and gres.conf gives the
// nodes their new GRES (as Slurm's do once slurmd registers again), while a changed
// GresTypes keeps its running value without failing the request (Slurm logs "GresPlugins
// changed ... ignored").
func TestGresReconfigure(t *testing.T) {
	c := startGresCluster(t)
	conf, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	// No count in Gres=: gres.conf's three device files give it, and a registered node shows
	// the count Slurm rebuilds (gpu:3).
	next := strings.Replace(string(conf), "NodeName=DEFAULT Gres=gpu:2", "NodeName=DEFAULT Gres=gpu", 1)
	next = strings.Replace(next, "GresTypes=gpu\n", "GresTypes=gpu,mps\n", 1)
	if next == string(conf) {
		t.Fatalf("slurm.conf has no Gres= line to change:\n%s", conf)
	}
	if err := os.WriteFile(c.ConfPath, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.Dir, "gres.conf"), []byte("NodeName=n[1-2] Name=gpu File=/dev/nvidia[0-2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := c.Run(t, "scontrol", "reconfigure"); code != 0 || out != "" || errOut != "" {
		t.Fatalf("scontrol reconfigure: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, _, _ := c.Run(t, "scontrol", "-d", "show", "node", "n1")
	if !strings.Contains(out, "   Gres=gpu:3\n   GresDrain=N/A\n   GresUsed=gpu:0\n") || !strings.Contains(out, ",gres/gpu=3\n") {
		t.Errorf("after reconfigure, scontrol -d show node n1:\n%s", out)
	}
	trueScript := filepath.Join(c.WorkDir, "true.sh")
	if err := os.WriteFile(trueScript, []byte("#!/bin/sh\ntrue\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := submitGres(t, c, "gres_three", "gpu:3", trueScript)
	c.WaitJob(t, id, states.JobComplete)
	// mps is in the file (sbatch reads it) but not in the running controller's GresTypes.
	_, errOut, code := c.Run(t, "sbatch", "-J", "gres_mps", "--gres=mps:1", "--wrap", "true")
	if want := "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification\n"; code != 1 || errOut != want {
		t.Errorf("sbatch --gres=mps:1 after GresTypes changed: exit %d, stderr %q; want 1, %q", code, errOut, want)
	}
}
