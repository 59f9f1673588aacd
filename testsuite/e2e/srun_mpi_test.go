package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_MPIPMI2 runs `srun --mpi=pmi2` steps over three emulated nodes (one slurmstepd
// for them all, so the nodes' fences meet in srun through one connection) with a PMI client
// playing an MPI library (testdata/pmiclient): speaking PMI-1 and then PMI-2, each of five
// tasks sees every task's card after a fence, and the second fence's cards after it, with
// PMI_process_mapping of the block layout (2, 2 and 1 tasks); every task finds PMI_RANK,
// PMI_SIZE, PMI_JOBID and SLURM_MPI_TYPE as Slurm's mpi/pmi2 sets them. A task's PMI abort
// cancels the step on every node, as the reference does. MpiDefault=pmi2 gives a step
// without --mpi the same, and --mpi=none none of it.
func TestSrun_MPIPMI2(t *testing.T) {
	client := testbin.Path(t, "testsuite/e2e/testdata/pmiclient")
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 2, ExtraConf: "MpiDefault=pmi2\n"})

	want := func(rank int) string {
		var cards, second []string
		for r := 0; r < 5; r++ {
			cards = append(cards, fmt.Sprintf("n%d-%d", r/2+1, r))
			second = append(second, fmt.Sprint(r*10))
		}
		return fmt.Sprintf("rank %d size 5 mapping (vector,(0,2,2),(2,1,1)) cards %s second %s",
			rank, strings.Join(cards, ","), strings.Join(second, ","))
	}
	for _, version := range []string{"1", "2"} {
		out, errOut, code := c.Run(t, "srun", "-t1", "--mpi=pmi2", "-N3", "-n5", client, version)
		if code != 0 || errOut != "" {
			t.Fatalf("PMI-%s: srun exit %d, stderr %q, stdout %q", version, code, errOut, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		sort.Strings(lines)
		if len(lines) != 5 {
			t.Fatalf("PMI-%s: %d lines, want 5:\n%s", version, len(lines), out)
		}
		for r, l := range lines {
			if l != want(r) {
				t.Errorf("PMI-%s: got  %q\nwant %q", version, l, want(r))
			}
		}
	}

	// The environment, with MpiDefault=pmi2 and no --mpi.
	out, errOut, code := c.Run(t, "srun", "-t1", "-N2", "-n3", "-l", "sh", "-c",
		`echo "$SLURM_MPI_TYPE $PMI_RANK $PMI_SIZE $PMI_JOBID $SLURM_JOB_ID.$SLURM_STEP_ID"; test -e /proc/self/fd/$PMI_FD && echo fd-open`)
	if code != 0 || errOut != "" {
		t.Fatalf("env: exit %d, stderr %q", code, errOut)
	}
	vars, open := map[string]string{}, map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		label, rest, _ := strings.Cut(l, ": ")
		if rest == "fd-open" {
			open[label] = true
		} else {
			vars[label] = rest
		}
	}
	for r := 0; r < 3; r++ {
		label := fmt.Sprint(r)
		f := strings.Fields(vars[label])
		if len(f) != 5 || f[0] != "pmi2" || f[1] != label || f[2] != "3" || f[3] != f[4] {
			t.Errorf("task %d: %q; want SLURM_MPI_TYPE=pmi2, PMI_RANK=%d, PMI_SIZE=3, PMI_JOBID=job.step", r, vars[label], r)
		}
		if !open[label] {
			t.Errorf("task %d: PMI_FD is not open in the task:\n%s", r, out)
		}
	}
	out, errOut, code = c.Run(t, "srun", "-t1", "--mpi=none", "sh", "-c", `echo "[$SLURM_MPI_TYPE][$PMI_FD][$PMI_RANK]"`)
	if code != 0 || out != "[][][]\n" {
		t.Errorf("--mpi=none: exit %d, stdout %q, stderr %q; want no PMI variables", code, out, errOut)
	}

	// MPI_Abort from rank 0: the step is cancelled on every node, its tasks killed.
	out, errOut, code = c.Run(t, "srun", "-t1", "--mpi=pmi2", "-N3", "-n3", client, "abort")
	if code != 137 || !strings.Contains(errOut, "CANCELLED AT") || !strings.Contains(errOut, "Killed") {
		t.Errorf("abort: exit %d, stdout %q, stderr %q; want 137 with the step CANCELLED and its tasks Killed", code, out, errOut)
	}
}

// TestSrun_MPICH runs a real MPI program (MPICH, built with mpicc) under
// `srun --mpi=pmi2` across two emulated nodes: the ranks find each other through Orbit's
// PMI and an MPI_Allreduce over the four of them gives 0+1+2+3. ensure-deps.sh installs
// MPICH; without mpicc the test cannot run and says so.
func TestSrun_MPICH(t *testing.T) {
	mpicc, err := exec.LookPath("mpicc")
	if err != nil {
		t.Skip("mpicc (MPICH) is not installed: testsuite/scripts/ensure-deps.sh installs it as root")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.c")
	os.WriteFile(src, []byte(`#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
	int rank, size, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d sum %d\n", rank, size, sum);
	MPI_Finalize();
	return 0;
}
`), 0o644)
	bin := filepath.Join(dir, "hello")
	if b, err := exec.Command(mpicc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("mpicc: %v\n%s", err, b)
	}
	os.Chmod(dir, 0o755)
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	out, errOut, code := c.Run(t, "srun", "-t1", "--mpi=pmi2", "-N2", "-n4", bin)
	if code != 0 {
		t.Fatalf("srun: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	sort.Strings(lines)
	want := []string{"rank 0 of 4 sum 6", "rank 1 of 4 sum 6", "rank 2 of 4 sum 6", "rank 3 of 4 sum 6"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}
