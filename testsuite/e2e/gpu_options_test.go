package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
)

// TestGPUOptions: --gpus, --gpus-per-task and --cpus-per-gpu on nodes of two GPUs, compared
// with the reference Slurm 22.05 on a node of two GPUs: the job keeps Slurm's TRES strings
// (scontrol's TresPerJob=, TresPerTask=, CpusPerTres=), gets the GPUs and CPUs they ask for,
// exports SLURM_GPUS and the like, and an srun step of a --gpus-per-task job binds each task
// to its own GPU. Requests whose GPUs per node the job's shape does not fix are refused.
func TestGPUOptions(t *testing.T) {
	c := startGresCluster(t) // gres_show_test.go: n1 and n2 with gpu:2 each
	submit := func(args ...string) uint32 {
		t.Helper()
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
		id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if code != 0 || err != nil {
			t.Fatalf("sbatch %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		return uint32(id)
	}
	show := func(id uint32) string {
		t.Helper()
		out, _, _ := c.Run(t, "scontrol", "show", "job", strconv.Itoa(int(id)))
		return out
	}

	// --gpus-per-task: two tasks on one node get a GPU each, one per task in their step.
	script := filepath.Join(c.WorkDir, "gpt.sh")
	body := "#!/bin/bash\n#SBATCH -n2 --gpus-per-task=1 -o gpt.out\n" +
		"echo batch $SLURM_GPUS_PER_TASK $CUDA_VISIBLE_DEVICES\n" +
		"srun -l bash -c 'echo $CUDA_VISIBLE_DEVICES $SLURM_STEP_GPUS' | sort\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	id := submit(script)
	if j := c.WaitJob(t, id, states.JobComplete); j == nil {
		t.Fatal("--gpus-per-task job did not complete")
	}
	if got, want := waitFile(t, filepath.Join(c.WorkDir, "gpt.out")), "batch 1 0,1\n0: 0 0\n1: 1 1\n"; got != want {
		t.Errorf("--gpus-per-task job output %q, want %q", got, want)
	}
	if out := show(id); !strings.Contains(out, "\n   TresPerTask=gres:gpu:1\n") {
		t.Errorf("--gpus-per-task job: no TresPerTask=gres:gpu:1 in\n%s", out)
	}

	// --gpus with --cpus-per-gpu: one GPU and two CPUs for it.
	id = submit("-o", "gpus.out", "--gpus=1", "--cpus-per-gpu=2", "--wrap", "echo $SLURM_GPUS $SLURM_CPUS_PER_GPU $CUDA_VISIBLE_DEVICES $SLURM_CPUS_ON_NODE")
	j := c.WaitJob(t, id, states.JobComplete)
	if j == nil {
		t.Fatal("--gpus job did not complete")
	}
	if got := waitFile(t, filepath.Join(c.WorkDir, "gpus.out")); got != "1 2 0 2\n" {
		t.Errorf("--gpus=1 --cpus-per-gpu=2 job output %q, want \"1 2 0 2\"", got)
	}
	if out := show(id); !strings.Contains(out, "\n   CpusPerTres=gres:gpu:2\n   TresPerJob=gres:gpu:1\n") || j.NumCPUs != 2 {
		t.Errorf("--gpus=1 --cpus-per-gpu=2 job (NumCPUs %d): want CpusPerTres= and TresPerJob= lines in\n%s", j.NumCPUs, out)
	}

	// --mem-per-gpu: kept as MemPerTres, and not exported as SLURM_MEM_PER_NODE (as on the
	// reference).
	id = submit("-o", "memgpu.out", "--gpus=1", "--mem-per-gpu=50", "--wrap", "echo ${SLURM_MEM_PER_NODE:-none} $SLURM_MEM_PER_GPU")
	if j := c.WaitJob(t, id, states.JobComplete); j == nil {
		t.Fatal("--mem-per-gpu job did not complete")
	}
	if got := waitFile(t, filepath.Join(c.WorkDir, "memgpu.out")); got != "none 50\n" {
		t.Errorf("--gpus=1 --mem-per-gpu=50 job output %q, want \"none 50\"", got)
	}
	if out := show(id); !strings.Contains(out, "MinMemoryNode=0 ") || !strings.Contains(out, "\n   MemPerTres=gres:gpu:50\n") {
		t.Errorf("--mem-per-gpu job: want MinMemoryNode=0 and MemPerTres=gres:gpu:50 in\n%s", out)
	}

	// --gpus-per-task over two nodes with a task count per node: a GPU on each.
	id = submit("-o", "/dev/null", "-N2", "--ntasks-per-node=1", "--gpus-per-task=1", "--wrap", "true")
	if j := c.WaitJob(t, id, states.JobComplete); j == nil || j.NodeList != "n[1-2]" {
		t.Errorf("-N2 --ntasks-per-node=1 --gpus-per-task=1: %+v", j)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--gpus-per-task=1"}, "sbatch: error: Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.\n" +
			"sbatch: error: Invalid generic resource (gres) specification\n"},
		{[]string{"--gpus=3"}, "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"},
		{[]string{"-N2", "-n3", "--gpus-per-task=1"}, "sbatch: error: --gpus-per-task over several nodes without --ntasks-per-node is not supported by Orbit yet\n" +
			"sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification\n"},
		{[]string{"--mem=10", "--mem-per-gpu=100", "--gpus=1"}, "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"},
	} {
		out, errOut, code := c.Run(t, "sbatch", append(tc.args, "--wrap", "true")...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("sbatch %v: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
