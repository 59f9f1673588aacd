package e2e_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_DistributionCyclic deals a step's tasks to its nodes as Slurm's cyclic
// distribution does, from srun -m cyclic and from a batch job's #SBATCH --distribution
// (SLURM_DISTRIBUTION): with two nodes of three CPUs and five tasks (three and two) the ranks on n1 are
// 0, 2 and 4, on n2 1 and 3, each task's SLURM_GTIDS lists its node's ranks and
// SLURM_LOCALID counts them in order; block keeps consecutive ranks; plane is refused by
// name.
func TestSrun_DistributionCyclic(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 3})
	show := `echo "$SLURM_PROCID $SLURMD_NODENAME $SLURM_LOCALID $SLURM_GTIDS"`
	lines := func(out string) string {
		l := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		sort.Strings(l)
		return strings.Join(l, "\n")
	}
	cyclic := "0 n1 0 0,2,4\n1 n2 0 1,3\n2 n1 1 0,2,4\n3 n2 1 1,3\n4 n1 2 0,2,4"
	block := "0 n1 0 0,1,2\n1 n1 1 0,1,2\n2 n1 2 0,1,2\n3 n2 0 3,4\n4 n2 1 3,4"
	for _, tc := range []struct {
		dist, want string
	}{{"cyclic", cyclic}, {"cyclic:block", cyclic}, {"block", block}, {"", block}} {
		args := []string{"-N2", "-n5"}
		if tc.dist != "" {
			args = append(args, "-m", tc.dist)
		}
		out, errOut, code := c.Run(t, "srun", append(args, "sh", "-c", show)...)
		if code != 0 || errOut != "" || lines(out) != tc.want {
			t.Errorf("srun -m %q: exit %d, stderr %q, tasks:\n%s\nwant:\n%s", tc.dist, code, errOut, lines(out), tc.want)
		}
	}
	_, errOut, code := c.Run(t, "srun", "-N2", "-n4", "-m", "plane=2", "true")
	if code != 1 || !strings.Contains(errOut, "--distribution=plane over more than one node is not supported") {
		t.Errorf("srun -m plane=2: exit %d, stderr %q; want a refusal by name", code, errOut)
	}

	// A batch job's --distribution reaches its steps.
	script := writeScript(t, c, "dist.sh", "#!/bin/sh\n#SBATCH -N2 -n5 --distribution=cyclic\n#SBATCH -o dist.out\nsrun sh -c '"+show+"'\n")
	id := submit(t, c, script)
	c.WaitJob(t, id, states.JobComplete)
	b, err := os.ReadFile(filepath.Join(c.WorkDir, "dist.out"))
	if err != nil || lines(string(b)) != cyclic {
		t.Errorf("batch job with --distribution=cyclic: %v, tasks:\n%s\nwant:\n%s", err, lines(string(b)), cyclic)
	}
}
