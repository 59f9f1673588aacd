package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestGres: --gres counts in scheduling (issue 6). Two nodes with gpu:2 each (device files
// named in gres.conf): a gpu:2 job takes one node's GPUs, a gpu:1 job then goes to the other
// node although the first has free CPUs, and a second gpu:2 job waits with Resources until
// the GPUs are freed; scripts see their devices in CUDA_VISIBLE_DEVICES and the like; an
// unknown GRES and a count no node has are refused with Slurm's texts and exit 1; and the
// requests and device holdings survive a controller restart.
func TestGres(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, MinJobAge: 300,
		ExtraConf: "GresTypes=gpu\nAccountingStorageTRES=gres/gpu\nNodeName=DEFAULT Gres=gpu:2\n"})
	// The cluster writes no gres.conf: add it and restart the controller, which reads it at
	// start (slurmd does not need it: the controller sends the devices).
	if err := os.WriteFile(filepath.Join(c.Dir, "gres.conf"), []byte("NodeName=n[1-2] Name=gpu File=/dev/nvidia[0-1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.KillController(t)
	c.RestartController(t)
	c.WaitNodesIdle(t)

	// Refusals, by srun (which allocates) and sbatch: nothing is submitted.
	// The commands check the syntax and GresTypes themselves (Slurm's text, no prefix
	// beyond "error: "); a count no node has is the controller's answer.
	for _, tc := range []struct{ gres, srun, sbatch string }{
		{"foo:1", "Invalid generic resource (gres) specification", "Invalid generic resource (gres) specification"},
		{"gpu::1", "Invalid generic resource (gres) specification", "Invalid generic resource (gres) specification"},
		{"gpu:3", "Unable to allocate resources: Requested node configuration is not available",
			"Batch job submission failed: Requested node configuration is not available"},
	} {
		out, errOut, code := c.Run(t, "srun", "-J", "gres_bad", "--gres="+tc.gres, "true")
		if want := "srun: error: " + tc.srun + "\n"; code != 1 || out != "" || errOut != want {
			t.Errorf("srun --gres=%s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.gres, code, out, errOut, want)
		}
		out, errOut, code = c.Run(t, "sbatch", "-J", "gres_bad", "--gres="+tc.gres, "--wrap", "true")
		if want := "sbatch: error: " + tc.sbatch + "\n"; code != 1 || out != "" || errOut != want {
			t.Errorf("sbatch --gres=%s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.gres, code, out, errOut, want)
		}
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-t", "all", "-o", "%i"); out != "" {
		t.Errorf("refused submissions left jobs: %q", out)
	}

	release := filepath.Join(c.WorkDir, "release")
	submit := func(name, gres string) uint32 {
		t.Helper()
		script := "#!/bin/sh\n" +
			"echo \"$CUDA_VISIBLE_DEVICES|$GPU_DEVICE_ORDINAL|$SLURM_JOB_GPUS|$SLURM_GPUS_ON_NODE\" > " + name + ".env\n" +
			"i=0; while [ ! -e " + release + " ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done\n"
		path := filepath.Join(c.WorkDir, name+".sh")
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return submitGres(t, c, name, gres, path)
	}
	envOf := func(name string) string {
		t.Helper()
		p := filepath.Join(c.WorkDir, name+".env")
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if b, err := os.ReadFile(p); err == nil && strings.HasSuffix(string(b), "\n") {
				return strings.TrimSpace(string(b))
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("%s: the script wrote no %s", name, p)
		return ""
	}
	squeue := func(id uint32, format string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "squeue", "-h", "-j", strconv.Itoa(int(id)), "-o", format)
		if code != 0 {
			t.Fatalf("squeue -j %d: exit %d, stderr %q", id, code, errOut)
		}
		return strings.TrimSpace(out)
	}
	waitReason := func(id uint32, want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		got := ""
		for time.Now().Before(deadline) {
			if got = squeue(id, "%T %r"); got == "PENDING "+want {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("job %d: squeue says %q, want PENDING %s", id, got, want)
	}

	a := submit("gres_a", "gpu:2")
	ja := c.WaitJob(t, a, states.JobRunning)
	b := submit("gres_b", "gpu:1")
	jb := c.WaitJob(t, b, states.JobRunning)
	if ja.NodeList == jb.NodeList {
		t.Errorf("gpu:2 job and gpu:1 job both on %s, which has 2 GPUs", ja.NodeList)
	}
	if got := envOf("gres_a"); got != "0,1|0,1|0,1|2" {
		t.Errorf("gpu:2 job's CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|SLURM_JOB_GPUS|SLURM_GPUS_ON_NODE = %q, want 0,1|0,1|0,1|2", got)
	}
	if got := envOf("gres_b"); got != "0|0|0|1" {
		t.Errorf("gpu:1 job's device variables = %q, want 0|0|0|1", got)
	}
	if got := squeue(a, "%b"); got != "gres:gpu:2" {
		t.Errorf("squeue %%b = %q, want gres:gpu:2", got)
	}
	show, _, _ := c.Run(t, "scontrol", "show", "job", strconv.Itoa(int(a)))
	if !strings.Contains(show, "TRES=cpu=1,node=1,billing=1,gres/gpu=2\n") {
		t.Errorf("scontrol show job: no TRES=...,gres/gpu=2 line:\n%s", show)
	}
	node, _, _ := c.Run(t, "scontrol", "show", "node", ja.NodeList)
	for _, want := range []string{"   Gres=gpu:2\n", ",gres/gpu=2\n", "AllocTRES=cpu=1,gres/gpu=2\n"} {
		if !strings.Contains(node, want) {
			t.Errorf("scontrol show node %s: no %q:\n%s", ja.NodeList, want, node)
		}
	}
	if out, _, _ := c.Run(t, "sinfo", "-h", "-o", "%G"); strings.TrimSpace(out) != "gpu:2" {
		t.Errorf("sinfo -o %%G = %q, want gpu:2", out)
	}

	// A second gpu:2 job: both nodes have CPUs free, neither two GPUs.
	d := submit("gres_d", "gpu:2")
	waitReason(d, "Resources")

	// The controller restarts: the pending request and the devices held are its own again.
	c.KillController(t)
	c.RestartController(t)
	waitReason(d, "Resources")
	if got := squeue(d, "%b"); got != "gres:gpu:2" {
		t.Errorf("after restart: squeue %%b = %q, want gres:gpu:2", got)
	}
	// A gpu:1 job fits nowhere either: n-of-b has one left only if b's device is known held.
	e := submit("gres_e", "gpu:1")
	je := c.WaitJob(t, e, states.JobRunning)
	if je.NodeList != jb.NodeList {
		t.Errorf("after restart: gpu:1 job on %s, want %s (the node with one GPU free)", je.NodeList, jb.NodeList)
	}
	if got := envOf("gres_e"); got != "1|1|1|1" {
		t.Errorf("after restart: gpu:1 job beside another gets %q, want device 1", got)
	}
	if _, errOut, code := c.Run(t, "scancel", strconv.Itoa(int(a))); code != 0 {
		t.Fatalf("scancel %d: %s", a, errOut)
	}
	jd := c.WaitJob(t, d, states.JobRunning)
	if jd.NodeList != ja.NodeList {
		t.Errorf("gpu:2 job started on %s, want %s (freed by the cancelled job)", jd.NodeList, ja.NodeList)
	}
	if got := envOf("gres_d"); got != "0,1|0,1|0,1|2" {
		t.Errorf("gpu:2 job after the cancel gets %q, want 0,1", got)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint32{b, d, e} {
		c.WaitJob(t, id, states.JobComplete)
	}
}

// submitGres submits script as a batch job with --gres by sbatch and returns its id.
func submitGres(t *testing.T, c *cluster.Cluster, name, gres, script string) uint32 {
	t.Helper()
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-J", name, "--gres="+gres, "-o", "/dev/null", script)
	if code != 0 {
		t.Fatalf("sbatch --gres=%s: exit %d, stderr %q", gres, code, errOut)
	}
	id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	return uint32(id)
}
