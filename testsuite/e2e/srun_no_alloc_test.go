package e2e_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunNoAllocate: srun -Z runs a step on the --nodelist nodes without a job, as Slurm
// 22.05's does for root and SlurmUser (outputs as on the reference): the tasks are spread
// evenly (7 over 3 nodes: 3,2,2) and have no SLURM_JOB_ID; the controller keeps no job;
// -Z without a node list, or with -x or -r, is refused; another user's launch is refused
// by the nodes ("Access/permission denied", exit 210, the errno's low byte).
func TestSrunNoAllocate(t *testing.T) {
	testbin.Path(t, "srun")
	a := newAccount(t)
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 2})
	openToUsers(t, c)

	out, errOut, code := c.Run(t, "srun", "-Z", "-w", "n[1-3]", "-n7", "-l", "printenv", "SLURMD_NODENAME", "SLURM_TASKS_PER_NODE")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	sort.Slice(lines, func(i, j int) bool {
		return rankOf(lines[i]) < rankOf(lines[j]) || rankOf(lines[i]) == rankOf(lines[j]) && lines[i] < lines[j]
	})
	want := "0: 3,2(x2) 0: n1 1: 3,2(x2) 1: n1 2: 3,2(x2) 2: n1 3: 3,2(x2) 3: n2 4: 3,2(x2) 4: n2 5: 3,2(x2) 5: n3 6: 3,2(x2) 6: n3"
	if code != 0 || strings.Join(lines, " ") != want || errOut != "srun: do not allocate resources\n" {
		t.Errorf("srun -Z -w n[1-3] -n7: exit %d, %q, stderr %q; want %q", code, strings.Join(lines, " "), errOut, want)
	}
	if out, _, code := c.Run(t, "srun", "-Z", "-w", "n2", "sh", "-c", `echo "${SLURM_JOB_ID-none} $SLURMD_NODENAME"`); code != 0 || out != "none n2\n" {
		t.Errorf("srun -Z -w n2: exit %d, %q; want no SLURM_JOB_ID, on n2", code, out)
	}
	if jobs := c.Jobs(t); len(jobs) != 0 {
		t.Errorf("the controller has %d jobs after srun -Z; want none", len(jobs))
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-Z", "true"}, "srun: error: must specify a node list with -Z, --no-allocate.\n"},
		{[]string{"-Z", "-w", "n1", "-x", "n2", "true"}, "srun: error: can not specify --exclude list with -Z, --no-allocate.\n"},
		{[]string{"-Z", "-w", "n1", "-r1", "true"}, "srun: error: do not specify -r,--relative with -Z,--no-allocate.\n" +
			"srun: error: -r,--relative not allowed with -w,--nodelist or -x,--exclude.\n"},
	} {
		if _, errOut, code := c.Run(t, "srun", tc.args...); code != 1 || errOut != tc.want {
			t.Errorf("srun %v: exit %d, %q; want exit 1, %q", tc.args, code, errOut, tc.want)
		}
	}
	_, errOut, code = runAs(t, c, a, userDir(t, c, a), "srun", "-Z", "-w", "n1", "true")
	errOut = regexp.MustCompile(`StepId=\d+\.\d+`).ReplaceAllString(errOut, "StepId=X")
	if want := "srun: do not allocate resources\n" +
		"srun: error: Task launch for StepId=X failed on node n1: Access/permission denied\n" +
		"srun: error: Application launch failed: Access/permission denied\n" +
		"srun: Job step aborted\n"; code != 210 || errOut != want {
		t.Errorf("srun -Z as %s: exit %d, %q; want exit 210, %q", a.name, code, errOut, want)
	}
}
