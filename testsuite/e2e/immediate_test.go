package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestImmediate_BusyCluster runs srun and salloc -I while an exclusive job holds the only
// node, with the lines, exit codes and job records of Slurm 22.05 (taken from the
// reference): -I (one second) is judged by the controller, which records the job FAILED
// (BadConstraints, 0:1) and refuses it for busy nodes, or for insufficient priority when an
// earlier job waits; a longer -I is the command's own wait, after which it gives the job
// back (CANCELLED, no exit status). Inside an allocation, srun -I gives up a step its job's
// CPUs cannot hold yet. The cases with an idle or held cluster are in testsuite/srunopts and
// testsuite/salloc, recorded from the reference.
func TestImmediate_BusyCluster(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	gate := filepath.Join(c.WorkDir, "gate")
	t.Cleanup(func() { os.WriteFile(gate, nil, 0o644) })
	holder := submit(t, c, "--exclusive", "--wrap", "while [ ! -e "+gate+" ]; do sleep 0.1; done")
	c.WaitJob(t, holder, states.JobRunning)

	const busy = "Unable to allocate resources: Requested nodes are busy\n"
	_, errOut, code := c.Run(t, "srun", "-J", "imm1", "-I", "true")
	if code != 1 || errOut != "srun: error: "+busy {
		t.Errorf("srun -I: exit %d, stderr %q; want 1 and %q", code, errOut, "srun: error: "+busy)
	}
	if show := showJob(t, c, jobNamed(t, c, "imm1")); !strings.Contains(show, "JobState=FAILED Reason=BadConstraints") ||
		!strings.Contains(show, "ExitCode=0:1") {
		t.Errorf("srun -I's refused job:\n%s", show)
	}
	if _, _, code := c.RunEnv(t, []string{"SLURM_EXIT_IMMEDIATE=7"}, "srun", "-I", "true"); code != 7 {
		t.Errorf("srun -I with SLURM_EXIT_IMMEDIATE=7: exit %d", code)
	}

	_, errOut, code = c.Run(t, "salloc", "-J", "imm2", "-I", "true")
	revoked := regexp.MustCompile(`\Asalloc: error: ` + regexp.QuoteMeta(busy) + `salloc: Job allocation (\d+) has been revoked\.\n\z`)
	if m := revoked.FindStringSubmatch(errOut); code != 1 || m == nil || m[1] != strconv.Itoa(int(jobNamed(t, c, "imm2"))) {
		t.Errorf("salloc -I: exit %d, stderr %q", code, errOut)
	}

	// -I2: the wait is the command's; the job is given back unstarted.
	_, errOut, code = c.Run(t, "srun", "-J", "imm3", "-I2", "true")
	id := jobNamed(t, c, "imm3")
	if want := "srun: job " + strconv.Itoa(int(id)) + " queued and waiting for resources\nsrun: error: " + busy; code != 1 || errOut != want {
		t.Errorf("srun -I2: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	if show := showJob(t, c, id); !strings.Contains(show, "JobState=CANCELLED Reason=Resources") || !strings.Contains(show, "ExitCode=0:0") {
		t.Errorf("srun -I2's job:\n%s", show)
	}
	_, errOut, code = c.Run(t, "salloc", "-J", "imm4", "-I2", "true")
	id = jobNamed(t, c, "imm4")
	s := strconv.Itoa(int(id))
	if want := "salloc: Pending job allocation " + s + "\nsalloc: job " + s + " queued and waiting for resources\n" +
		"salloc: error: Unable to allocate resources: Connection timed out\nsalloc: Job allocation " + s + " has been revoked.\n"; code != 1 || errOut != want {
		t.Errorf("salloc -I2: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}

	// A job waiting before it has the higher priority: -I is refused for that first.
	waiting := submit(t, c, "--wrap", "true")
	const prio = "Unable to allocate resources: Immediate execution impossible, insufficient priority\n"
	if _, errOut, code := c.Run(t, "srun", "-I", "true"); code != 1 || errOut != "srun: error: "+prio {
		t.Errorf("srun -I behind job %d: exit %d, stderr %q; want 1 and %q", waiting, code, errOut, "srun: error: "+prio)
	}
	if _, errOut, code := c.Run(t, "salloc", "-I", "true"); code != 1 || !strings.HasPrefix(errOut, "salloc: error: "+prio) {
		t.Errorf("salloc -I behind job %d: exit %d, stderr %q", waiting, code, errOut)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.WaitJob(t, waiting, states.JobComplete)

	// Steps: the first step holds the job's CPUs (until the script lets it go), so -I gives
	// the second up; -I30 waits for the first to end, as Slurm's srun does when woken, and
	// says so. The first step ends 3 s after -I30 was started, long after its first ask.
	out, errOut, code := c.Run(t, "salloc", "-Q", "-n1", "bash", "-c",
		"srun bash -c 'touch step.up; while [ ! -e step.go ]; do sleep 0.1; done' & "+
			"until [ -e step.up ]; do sleep 0.1; done; srun -I true; echo rc=$?; "+
			"(sleep 3; touch step.go) & srun -I30 true; echo rc=$?; wait")
	if out != "rc=1\nrc=0\n" || code != 0 {
		t.Errorf("salloc: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	step := regexp.MustCompile(`\Asrun: error: Unable to create step for job (\d+): Requested nodes are busy\n` +
		`srun: Job (\d+) step creation temporarily disabled, retrying \(Requested nodes are busy\)\n` +
		`srun: Step created for job (\d+)\n\z`)
	if m := step.FindStringSubmatch(errOut); m == nil || m[1] != m[2] || m[2] != m[3] {
		t.Errorf("steps under -I: stderr %q", errOut)
	}
}

// jobNamed is the id of the one job named name.
func jobNamed(t *testing.T, c *cluster.Cluster, name string) uint32 {
	t.Helper()
	var ids []uint32
	for _, j := range c.Jobs(t) {
		if j.Name == name {
			ids = append(ids, j.JobID)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("jobs named %s: %v, want one", name, ids)
	}
	return ids[0]
}
