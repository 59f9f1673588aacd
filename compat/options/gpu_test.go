package options

import (
	"errors"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// TestGpusPerNode: --gpus-per-node is the job's tres_per_node "gpu:N" ahead of --gres's
// elements, whatever the order of the options and wherever they come from, as Slurm's
// slurm_opt_create_job_desc builds it; --gres=none then adds nothing.
func TestGpusPerNode(t *testing.T) {
	for _, c := range []struct {
		argv []string
		env  []string
		want string
	}{
		{[]string{"--gpus-per-node=2"}, nil, "gpu:2"},
		{[]string{"--gpus-per-node=a100:2"}, nil, "gpu:a100:2"},
		{[]string{"--gres=nic:1", "--gpus-per-node=2"}, nil, "gpu:2,nic:1"},
		{[]string{"--gpus-per-node=2", "--gres=nic:1"}, nil, "gpu:2,nic:1"},
		{[]string{"--gpus-per-node=2", "--gres=none"}, nil, "gpu:2"},
		{[]string{"--gres=none"}, nil, "none"},
		{nil, []string{"SBATCH_GPUS_PER_NODE=3"}, "gpu:3"},
		{[]string{"--gpus-per-node=1"}, []string{"SBATCH_GPUS_PER_NODE=3"}, "gpu:1"},
		{[]string{"--gres=nic:2"}, []string{"SBATCH_GPUS_PER_NODE=3"}, "gpu:3,nic:2"},
	} {
		argv := append(append([]string{"sbatch"}, c.argv...), "s.sh")
		js, err := ParseSbatch(argv, c.env, []byte(okScript), now)
		if err != nil {
			t.Errorf("sbatch %v (env %v): %v", c.argv, c.env, err)
			continue
		}
		if js.Gres != c.want {
			t.Errorf("sbatch %v (env %v): Gres = %q, want %q", c.argv, c.env, js.Gres, c.want)
		}
	}
	js, err := ParseSrun([]string{"srun", "--gpus-per-node=2", "true"}, nil, "/tmp", now)
	if err != nil || js.Gres != "gpu:2" {
		t.Errorf("srun --gpus-per-node=2: Gres %q, %v; want gpu:2", js.Gres, err)
	}
}

// TestGpuOptionsRefused: the GPU counts Orbit does not model are parsed and listed for the
// commands' check against GresTypes (CheckUnmodelledGPU), never silently dropped, from the
// command line and from the environment. (--gpu-bind and --gpu-freq are stored options:
// stored_test.go.)
func TestGpuOptionsRefused(t *testing.T) {
	for opt, name := range map[string]string{"--gpus=2": "--gpus", "-G2": "--gpus", "--gpus-per-task=1": "--gpus-per-task",
		"--gpus-per-socket=1": "--gpus-per-socket", "--cpus-per-gpu=2": "--cpus-per-gpu", "--mem-per-gpu=1G": "--mem-per-gpu",
		"--ntasks-per-gpu=1": "--ntasks-per-gpu"} {
		js, err := ParseSbatch([]string{"sbatch", opt, "s.sh"}, nil, []byte(okScript), now)
		if err != nil || len(js.UnmodelledGPU) != 1 || js.UnmodelledGPU[0] != name {
			t.Errorf("sbatch %s: %v, unmodelled %v; want [%s]", opt, err, js, name)
		}
		js, err = ParseSrun([]string{"srun", opt, "true"}, nil, "/tmp", now)
		if err != nil || len(js.UnmodelledGPU) != 1 || js.UnmodelledGPU[0] != name {
			t.Errorf("srun %s: %v; want [%s]", opt, err, name)
		}
	}
	js, err := ParseSbatch([]string{"sbatch", "s.sh"}, []string{"SBATCH_GPUS=2"}, []byte(okScript), now)
	if err != nil || len(js.UnmodelledGPU) != 1 {
		t.Errorf("SBATCH_GPUS=2: %v, want --gpus listed", err)
	}
}

// TestCheckUnmodelledGPU: on a cluster without a gpu GRES the GPU options beyond --gres get
// Slurm's invalid-GRES refusal; with one, --gpus-per-socket and --ntasks-per-gpu are refused
// by name, --gpus-per-task without a task count as Slurm refuses it (the reference's lines),
// and the others go to the controller as the TRES strings Slurm keeps.
func TestCheckUnmodelledGPU(t *testing.T) {
	js, err := ParseSbatch([]string{"sbatch", "--gpus-per-task=1", "--ntasks-per-gpu=2", "s.sh"}, nil, []byte(okScript), now)
	if err != nil {
		t.Fatal(err)
	}
	if msg, code := CheckUnmodelledGPU("sbatch", js, "gpu,mps"); code != 1 || msg != "sbatch: error: --ntasks-per-gpu is not supported by Orbit yet\n" {
		t.Errorf("with gpu in GresTypes: %d %q", code, msg)
	}
	alone, _ := ParseSbatch([]string{"sbatch", "--gpus-per-task=1", "s.sh"}, nil, []byte(okScript), now)
	if msg, code := CheckUnmodelledGPU("sbatch", alone, "gpu"); code != 1 || msg != "sbatch: error: Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.\n"+
		"sbatch: error: Invalid generic resource (gres) specification\n" {
		t.Errorf("--gpus-per-task without -n: %d %q", code, msg)
	}
	ok, _ := ParseSbatch([]string{"sbatch", "-n2", "--gpus-per-task=1", "--cpus-per-gpu=3", "--mem-per-gpu=1G", "-G", "a100:2", "s.sh"}, nil, []byte(okScript), now)
	if msg, code := CheckUnmodelledGPU("sbatch", ok, "gpu"); code != 0 || ok.TresPerTask != "gres:gpu:1" || ok.CpusPerTres != "gres:gpu:3" ||
		ok.MemPerTres != "gres:gpu:1024" || ok.TresPerJob != "gres:gpu:a100:2" {
		t.Errorf("GPU requests: %d %q; TRES %q %q %q %q", code, msg, ok.TresPerJob, ok.TresPerTask, ok.CpusPerTres, ok.MemPerTres)
	}
	want := "sbatch: error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification\n" +
		"sbatch: error: Invalid generic resource (gres) specification\n"
	if msg, code := CheckUnmodelledGPU("sbatch", js, ""); code != 1 || msg != want {
		t.Errorf("without GresTypes: %d %q", code, msg)
	}
	plain, _ := ParseSbatch([]string{"sbatch", "--gpus-per-node=1", "s.sh"}, nil, []byte(okScript), now)
	if msg, code := CheckUnmodelledGPU("sbatch", plain, ""); code != 0 || msg != "" {
		t.Errorf("--gpus-per-node alone: %d %q", code, msg)
	}
}

// TestMemPerGPUExclusive: --mem-per-gpu is a rival of --mem and --mem-per-cpu, as in Slurm's
// _validate_memory_options; given on the command line it overrides SLURM_MEM_PER_NODE.
// --cpus-per-gpu must be a number (parse_int).
func TestMemPerGPUExclusive(t *testing.T) {
	_, err := ParseSbatch([]string{"sbatch", "--mem=10", "--mem-per-gpu=100", "s.sh"}, nil, []byte(okScript), now)
	var perr *Error
	if !errors.As(err, &perr) || perr.Stderr != "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n" || perr.ExitCode != 1 {
		t.Errorf("--mem with --mem-per-gpu: %v", err)
	}
	_, err = ParseSbatch([]string{"sbatch", "--cpus-per-gpu=abc", "s.sh"}, nil, []byte(okScript), now)
	if !errors.As(err, &perr) || perr.Stderr != "sbatch: error: Invalid numeric value \"abc\" for --cpus-per-gpu.\n" {
		t.Errorf("--cpus-per-gpu=abc: %v", err)
	}
	js, err := ParseSbatch([]string{"sbatch", "--mem-per-gpu=100", "s.sh"}, []string{"SLURM_MEM_PER_NODE=10"}, []byte(okScript), now)
	if err != nil || js.MemPerTres != "gres:gpu:100" || js.MemPerNode != jobspec.NoVal64 {
		t.Errorf("--mem-per-gpu over SLURM_MEM_PER_NODE: %v, MemPerTres %q MemPerNode %d", err, js.MemPerTres, js.MemPerNode)
	}
}
