package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_DistributionCyclic deals a step's tasks to its nodes as Slurm's cyclic
// distribution does, from srun -m cyclic and from a batch job's #SBATCH --distribution
// (SLURM_DISTRIBUTION): with two nodes of three CPUs and five tasks (three on one node, two
// on the other) the ranks go round the nodes (0, 2, 4 and 1, 3 when n1 has three), each
// task's SLURM_GTIDS lists its node's ranks and SLURM_LOCALID counts them in order; block
// keeps consecutive ranks; plane=2 deals them two at a time.
func TestSrun_DistributionCyclic(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 3})
	show := `echo "$SLURM_PROCID $SLURMD_NODENAME $SLURM_LOCALID $SLURM_GTIDS"`
	// check verifies the tasks' lines against the layout dist gives the per-node task counts
	// the step has (the allocation decides them: three and two, or two and three).
	check := func(what, out, dist string) {
		t.Helper()
		type task struct{ node, local, gtids string }
		tasks := map[int]task{}
		counts := map[string]int{}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var rank int
			var tk task
			if n, _ := fmt.Sscan(l, &rank, &tk.node, &tk.local, &tk.gtids); n != 4 {
				t.Fatalf("%s: line %q", what, l)
			}
			tasks[rank] = tk
			counts[tk.node]++
		}
		if len(tasks) != 5 || counts["n1"] == 0 || counts["n2"] == 0 {
			t.Fatalf("%s: tasks %v, want five on n1 and n2", what, tasks)
		}
		// Deal the ranks as Slurm does: block fills n1 first; cyclic goes round the nodes.
		want := map[string][]int{}
		left := map[string]int{"n1": counts["n1"], "n2": counts["n2"]}
		for rank := 0; rank < 5; {
			for _, node := range []string{"n1", "n2"} {
				for left[node] > 0 && rank < 5 {
					want[node] = append(want[node], rank)
					left[node]--
					rank++
					if dist == "cyclic" || dist == "plane=2" && len(want[node])%2 == 0 {
						break
					}
				}
			}
		}
		for node, ranks := range want {
			gtids := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ranks)), ","), "[]")
			for local, rank := range ranks {
				if got, w := tasks[rank], (task{node, fmt.Sprint(local), gtids}); got != w {
					t.Errorf("%s: rank %d is %+v, want %+v\n%s", what, rank, got, w, out)
				}
			}
		}
	}
	for _, tc := range []struct{ dist, kind string }{{"cyclic", "cyclic"}, {"cyclic:block", "cyclic"}, {"block", "block"}, {"", "block"}} {
		args := []string{"-N2", "-n5"}
		if tc.dist != "" {
			args = append(args, "-m", tc.dist)
		}
		out, errOut, code := c.Run(t, "srun", append(args, "sh", "-c", show)...)
		if code != 0 || errOut != "" {
			t.Fatalf("srun -m %q: exit %d, stderr %q", tc.dist, code, errOut)
		}
		check("srun -m "+tc.dist, out, tc.kind)
	}
	// plane=2 deals two ranks at a time: n1 0,1,4 and n2 2,3 on three and two tasks.
	out, errOut, code := c.Run(t, "srun", "-N2", "-n5", "-m", "plane=2", "sh", "-c", show)
	if code != 0 || errOut != "" {
		t.Fatalf("srun -m plane=2: exit %d, stderr %q", code, errOut)
	}
	check("srun -m plane=2", out, "plane=2")

	// A batch job's --distribution reaches its steps.
	script := writeScript(t, c, "dist.sh", "#!/bin/sh\n#SBATCH -N2 -n5 --distribution=cyclic\n#SBATCH -o dist.out\nsrun sh -c '"+show+"'\n")
	id := submit(t, c, script)
	c.WaitJob(t, id, states.JobComplete)
	b, err := os.ReadFile(filepath.Join(c.WorkDir, "dist.out"))
	if err != nil {
		t.Fatal(err)
	}
	check("batch job with --distribution=cyclic", string(b), "cyclic")
}
