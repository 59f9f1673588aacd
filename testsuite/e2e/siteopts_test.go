package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSiteOptionsRun: a real site's script with --hint, --distribution, --cpu-freq,
// --profile and --mem-bind runs on nodes with one thread per core; the batch shell and the
// job's srun tasks see the requests in their environment, as under Slurm.
func TestSiteOptionsRun(t *testing.T) {
	testbin.Path(t, "srun") // built before any job runs: jobs find Orbit's srun first on PATH
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300})
	script := filepath.Join(c.WorkDir, "site.sh")
	body := "#!/bin/bash\n#SBATCH -N 1 --ntasks-per-node=2\n#SBATCH --hint=nomultithread\n#SBATCH --distribution=block:block\n" +
		"#SBATCH --cpu-freq=high --profile=task --mem-bind=local\n#SBATCH -o site.out\n" +
		"echo batch $SLURM_HINT $SLURM_THREADS_PER_CORE $SLURM_DISTRIBUTION $SLURM_CPU_FREQ_REQ $SLURM_PROFILE $SLURM_MEM_BIND\n" +
		"srun bash -c 'echo task $SLURM_PROCID $SLURM_HINT $SLURM_CPU_FREQ_REQ $SLURM_PROFILE' | sort\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.Run(t, "sbatch", "--parsable", script)
	if code != 0 {
		t.Fatalf("sbatch: exit %d, stderr %q", code, errOut)
	}
	id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	if j := c.WaitJob(t, uint32(id), states.JobComplete); j == nil {
		t.Fatal("job did not complete")
	}
	got, err := os.ReadFile(filepath.Join(c.WorkDir, "site.out"))
	if err != nil {
		t.Fatal(err)
	}
	// srun reads SLURM_THREADS_PER_CORE (sbatch --hint exports it), which means
	// --cpu-bind=threads, and says, as Slurm's does, that TaskPlugin=task/none cannot bind;
	// that line reaches the job's output before the tasks' (sorted) lines.
	want := "batch nomultithread 1 block:block High Task local\n" +
		"srun: cluster configuration lacks support for cpu binding\n" +
		"task 0 nomultithread High Task\ntask 1 nomultithread High Task\n"
	if string(got) != want {
		t.Errorf("job output %q, want %q", got, want)
	}

	// What the controller keeps for scontrol show job (ReqB:S:C:T, NtasksPerN:B:S:C,
	// DelayBoot, Switches capped at max_switch_wait, CPU_max_freq, SpreadJob).
	out, errOut, code = c.Run(t, "sbatch", "--parsable", "-H", "--threads-per-core=1", "--ntasks-per-core=1",
		"--delay-boot=5", "--switches=2@10", "--cpu-freq=high", "--spread-job", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch -H: exit %d, stderr %q", code, errOut)
	}
	if id, err = strconv.ParseUint(strings.TrimSpace(out), 10, 32); err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	j := c.WaitJob(t, uint32(id), states.JobPending)
	if j.ThreadsPerCore != 1 || j.NTasksPerCore != 1 || j.DelayBoot != 300 || j.ReqSwitch != 2 || j.SwitchWait != 300 ||
		j.CPUFreqMax != 0x80000003 || !j.SpreadJob || j.CoresPerSocket != 0 || j.TmpDiskMB != 0 {
		t.Errorf("held job's site fields: tpc %d npc %d delay %d switches %d@%d cpufreq %#x spread %v cores %d tmp %d",
			j.ThreadsPerCore, j.NTasksPerCore, j.DelayBoot, j.ReqSwitch, j.SwitchWait, j.CPUFreqMax, j.SpreadJob, j.CoresPerSocket, j.TmpDiskMB)
	}
	c.Run(t, "scancel", strconv.FormatUint(id, 10))
}

// TestSiteOptionsRefused: on nodes with two threads per core --hint would change how Slurm
// counts CPUs, which Orbit does not model: sbatch refuses it by name and submits nothing;
// srun outside an allocation cannot check the nodes and refuses it too.
func TestSiteOptionsRefused(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, Sockets: 1, CoresPerSocket: 2, ThreadsPerCore: 2, MinJobAge: 300})
	for _, tc := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"sbatch", []string{"--hint=nomultithread", "--wrap", "true"}, "sbatch: error: --hint on nodes with ThreadsPerCore>1 is not supported by Orbit's sbatch yet\n"},
		{"sbatch", []string{"--ntasks-per-core=1", "--wrap", "true"}, "sbatch: error: --ntasks-per-core on nodes with ThreadsPerCore>1 is not supported by Orbit's sbatch yet\n"},
		{"srun", []string{"--hint=nomultithread", "true"}, "srun: error: --hint outside an allocation is not supported by Orbit's srun yet\n"},
	} {
		out, errOut, code := c.Run(t, tc.cmd, tc.args...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.cmd, tc.args, code, out, errOut, tc.want)
		}
	}
	if out, errOut, code := c.Run(t, "squeue", "-h", "-o", "%i"); code != 0 || out != "" {
		t.Errorf("squeue after refused submissions: exit %d, stdout %q, stderr %q; want no job", code, out, errOut)
	}
	// What changes nothing there is still accepted.
	if _, errOut, code := c.Run(t, "sbatch", "-H", "--cpu-freq=low", "--profile=none", "-m", "cyclic", "--wrap", "true"); code != 0 {
		t.Errorf("sbatch with environment-only options: exit %d, stderr %q", code, errOut)
	}
}

// TestExtraNodeInfo: -B S[:C[:T]] sets the node-shape requests as the separate options do,
// and scontrol shows them as the reference did for the same -B on Slurm 22.05 (Socks/Node
// and ReqB:S:C:T, "*" for a request left open); a bad part is refused with Slurm's message
// and exit 1, before anything is submitted.
func TestExtraNodeInfo(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, tc := range []struct{ b, shape string }{
		{"1", "ReqB:S:C:T=0:0:*:* Socks/Node=1"},
		{"1:*:1", "ReqB:S:C:T=0:0:*:1 Socks/Node=1"},
		{"*:1", "ReqB:S:C:T=0:0:1:* Socks/Node=*"},
	} {
		out, errOut, code := c.Run(t, "sbatch", "--parsable", "-H", "-B", tc.b, "--wrap", "true")
		if code != 0 {
			t.Fatalf("sbatch -B %s: exit %d: %s", tc.b, code, errOut)
		}
		show, _, _ := c.Run(t, "scontrol", "show", "job", strings.TrimSpace(out))
		var got []string
		for _, f := range strings.Fields(show) {
			if strings.HasPrefix(f, "ReqB:S:C:T=") || strings.HasPrefix(f, "Socks/Node=") {
				got = append(got, f)
			}
		}
		if strings.Join(got, " ") != tc.shape {
			t.Errorf("-B %s: scontrol shows %q, want %q", tc.b, got, tc.shape)
		}
	}
	out, errOut, code := c.Run(t, "sbatch", "-H", "-B", "1:y", "--wrap", "true")
	if want := "sbatch: error: Invalid numeric value \"y\" for second arg of -B.\n"; code != 1 || out != "" || errOut != want {
		t.Errorf("sbatch -B 1:y: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, want)
	}
	if n := len(c.Jobs(t)); n != 3 {
		t.Errorf("the controller has %d jobs, want the 3 accepted", n)
	}
}
