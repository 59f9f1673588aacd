package e2e_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestExitCodesEnv: SLURM_EXIT_ERROR sets sbatch's, srun's and salloc's error exit, and a
// value that reads as zero is complained of first and leaves 1 (Slurm's _set_exit_code).
// The texts are the reference's.
func TestExitCodesEnv(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, tt := range []struct {
		env    []string
		cmd    string
		args   []string
		stderr string
		code   int
	}{
		{[]string{"SLURM_EXIT_ERROR=5"}, "srun", []string{"-p", "nope", "true"},
			"srun: error: invalid partition specified: nope\nsrun: error: Unable to allocate resources: Invalid partition name specified\n", 5},
		{[]string{"SLURM_EXIT_ERROR=5"}, "sbatch", []string{"-p", "nope", "--wrap", "true"},
			"sbatch: error: invalid partition specified: nope\nsbatch: error: Batch job submission failed: Invalid partition name specified\n", 5},
		{[]string{"SLURM_EXIT_ERROR=0"}, "sbatch", []string{"-p", "nope", "--wrap", "true"},
			"sbatch: error: SLURM_EXIT_ERROR has zero value\nsbatch: error: invalid partition specified: nope\nsbatch: error: Batch job submission failed: Invalid partition name specified\n", 1},
		{[]string{"SLURM_EXIT_ERROR=0", "SLURM_EXIT_IMMEDIATE=x"}, "salloc", []string{"-p", "nope", "true"},
			"salloc: error: SLURM_EXIT_ERROR has zero value\nsalloc: error: SLURM_EXIT_IMMEDIATE has zero value\nsalloc: error: invalid partition specified: nope\nsalloc: error: Job submit/allocate failed: Invalid partition name specified\n", 1},
		{[]string{"SLURM_EXIT_IMMEDIATE=0"}, "srun", []string{"true"}, "srun: error: SLURM_EXIT_IMMEDIATE has zero value\n", 0},
	} {
		out, errOut, code := c.RunEnv(t, tt.env, tt.cmd, tt.args...)
		if out != "" || errOut != tt.stderr || code != tt.code {
			t.Errorf("%v %s %q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", tt.env, tt.cmd, tt.args, code, out, errOut, tt.code, tt.stderr)
		}
	}
}
