package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestLicenses: slurm.conf's Licenses are counted as Slurm 22.05 counts local licenses.
// Jobs submitted together start only as far as the licenses go (one scheduling pass may not
// hand out more than there are); the others wait with reason Licenses and start when a
// holder ends. scontrol show licenses shows the totals, what is used and what is free, in
// Slurm's layout; squeue %W and scontrol show job show the request as given; scontrol update
// changes it; a request for a license not configured, or more than its total, or not a valid
// list, is refused.
func TestLicenses(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 8, MinJobAge: 300, ExtraConf: "Licenses=stata,matlab:2\n"})
	var ids []uint32
	for range 3 {
		ids = append(ids, submit(t, c, "-L", "matlab", "-o", "/dev/null", "--wrap", "sleep 300"))
	}
	both := submit(t, c, "-L", "matlab;stata", "-o", "/dev/null", "--wrap", "true")
	running, waiting := 0, []uint32{}
	waitFor(t, "two matlab jobs running, the rest waiting for licenses", func() bool {
		running, waiting = 0, nil
		for _, id := range append(ids[:3:3], both) {
			j := c.Job(t, id)
			switch {
			case j == nil:
				return false
			case states.JobState(j.State).Base() == states.JobRunning:
				running++
			case states.Reason(j.Reason) == states.WaitLicenses:
				waiting = append(waiting, id)
			}
		}
		return running == 2 && len(waiting) == 2
	})

	want := "LicenseName=matlab Total=2 Used=2 Free=0 Reserved=0 Remote=no\n" +
		"LicenseName=stata Total=1 Used=0 Free=1 Reserved=0 Remote=no\n"
	if out, errOut, code := c.Run(t, "scontrol", "-o", "show", "licenses"); code != 0 || out != want {
		t.Errorf("scontrol -o show licenses: exit %d\n%s%s; want\n%s", code, out, errOut, want)
	}
	if out, _, code := c.Run(t, "scontrol", "show", "lic", "stata"); code != 0 ||
		out != "LicenseName=stata\n    Total=1 Used=0 Free=1 Reserved=0 Remote=no\n" {
		t.Errorf("scontrol show lic stata: exit %d\n%s", code, out)
	}
	if out, _, code := c.Run(t, "scontrol", "show", "lic", "nope"); code != 0 || out != "" {
		t.Errorf("scontrol show lic nope: exit %d, %q; want nothing, as Slurm", code, out)
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(both), "-o", "%W %r"); out != "matlab;stata Licenses\n" {
		t.Errorf("squeue %%W %%r of the waiting job = %q, want %q", out, "matlab;stata Licenses\n")
	}
	if out, _, _ := c.Run(t, "scontrol", "show", "job", fmt.Sprint(ids[0])); !strings.Contains(out, " Licenses=matlab ") {
		t.Errorf("scontrol show job lacks Licenses=matlab:\n%s", out)
	}

	// A holder ends: the waiting matlab job gets its license; the job wanting matlab and
	// stata still waits for matlab.
	var holder uint32
	for _, id := range ids {
		if states.JobState(c.Job(t, id).State).Base() == states.JobRunning {
			holder = id
			break
		}
	}
	c.Run(t, "scancel", fmt.Sprint(holder))
	waitFor(t, "the waiting matlab job started on the freed license", func() bool {
		for _, id := range ids {
			if j := c.Job(t, id); id != holder && (j == nil || states.JobState(j.State).Base() != states.JobRunning) {
				return false
			}
		}
		return true
	})
	if j := c.Job(t, both); states.JobState(j.State).Base() != states.JobPending || states.Reason(j.Reason) != states.WaitLicenses {
		t.Errorf("job wanting matlab and stata: %s %s, want still PENDING Licenses",
			states.JobState(j.State), states.Reason(j.Reason))
	}

	// scontrol update changes a pending job's request: with stata alone it can start.
	if out, errOut, code := c.Run(t, "scontrol", "update", "job", fmt.Sprint(both), "Licenses=foo"); code != 1 ||
		errOut != fmt.Sprintf("Invalid license specification for job %d\n", both) {
		t.Errorf("scontrol update Licenses=foo: exit %d, %q, %q; want Slurm's refusal", code, out, errOut)
	}
	if _, errOut, code := c.Run(t, "scontrol", "update", "job", fmt.Sprint(both), "Licenses=stata"); code != 0 {
		t.Fatalf("scontrol update Licenses=stata: exit %d, %q", code, errOut)
	}
	c.WaitJob(t, both, states.JobComplete)

	// A step takes no licenses in Slurm 22.05: srun -L inside the job is accepted and ignored.
	testbin.Path(t, "srun") // built before the job runs: jobs find Orbit's srun first on PATH
	step := submit(t, c, "-o", "/dev/null", "--wrap", "srun -L stata true")
	c.WaitJob(t, step, states.JobComplete)

	// Licenses= sets a job's licenses to Slurm's empty string, shown as such, where a job
	// never given any shows (null); squeue's %W follows.
	held := submit(t, c, "-H", "-L", "stata", "--wrap", "true")
	plain := submit(t, c, "-H", "--wrap", "true")
	for _, id := range []uint32{held, plain} {
		if _, errOut, code := c.Run(t, "scontrol", "update", "job", fmt.Sprint(id), "Licenses="); code != 0 {
			t.Fatalf("scontrol update job %d Licenses=: exit %d, %q", id, code, errOut)
		}
		if out, _, _ := c.Run(t, "scontrol", "show", "job", fmt.Sprint(id)); !strings.Contains(out, " Licenses= Network=") {
			t.Errorf("job %d after Licenses=: scontrol show job lacks \"Licenses= \":\n%s", id, out)
		}
		if out, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(id), "-o", "%W|"); out != "|\n" {
			t.Errorf("job %d after Licenses=: squeue %%W = %q, want empty", id, out)
		}
	}
	other := submit(t, c, "-H", "--wrap", "true")
	if out, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(other), "-o", "%W|"); out != "(null)|\n" {
		t.Errorf("job never given licenses: squeue %%W = %q, want (null)", out)
	}
	c.Run(t, "scancel", fmt.Sprint(held), fmt.Sprint(plain), fmt.Sprint(other))

	for _, bad := range []string{"matlab:3", "foo", "matlab:x", "mat lab", "matlab:-1"} {
		out, errOut, code := c.Run(t, "sbatch", "-L", bad, "--wrap", "true")
		if code != 1 || out != "" || errOut != "sbatch: error: Batch job submission failed: Invalid license specification\n" {
			t.Errorf("sbatch -L %q: exit %d, %q, %q; want Slurm's refusal", bad, code, out, errOut)
		}
	}
}
