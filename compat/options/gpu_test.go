package options

import (
	"strings"
	"testing"
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

// TestGpuOptionsRefused: the GPU options Orbit does not model are refused by name, by every
// command and from the environment, never silently dropped.
func TestGpuOptionsRefused(t *testing.T) {
	for _, opt := range []string{"--gpus=2", "-G2", "--gpus-per-task=1", "--gpus-per-socket=1", "--cpus-per-gpu=2",
		"--mem-per-gpu=1G", "--ntasks-per-gpu=1", "--gpu-bind=closest", "--gpu-freq=high"} {
		_, err := ParseSbatch([]string{"sbatch", opt, "s.sh"}, nil, []byte(okScript), now)
		if err == nil || !strings.Contains(err.Error(), "is not supported by Orbit yet") {
			t.Errorf("sbatch %s: error %v, want a refusal by name", opt, err)
		}
		_, err = ParseSrun([]string{"srun", opt, "true"}, nil, "/tmp", now)
		if err == nil || !strings.Contains(err.Error(), "is not supported by Orbit yet") {
			t.Errorf("srun %s: error %v, want a refusal by name", opt, err)
		}
	}
	_, err := ParseSbatch([]string{"sbatch", "s.sh"}, []string{"SBATCH_GPUS=2"}, []byte(okScript), now)
	if err == nil || !strings.Contains(err.Error(), "SBATCH_GPUS (--gpus) is not supported by Orbit yet") {
		t.Errorf("SBATCH_GPUS=2: error %v, want a refusal naming it", err)
	}
}
