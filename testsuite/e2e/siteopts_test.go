package e2e_test

import (
	"fmt"
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

// TestWholeCores: on a node with two threads per core a job holds whole cores, and
// --hint=nomultithread, --ntasks-per-core and --threads-per-core say how many threads of
// each it uses, as the reference Slurm 22.05 showed for the same requests on a node of the
// same shape (2 cores of 2 threads) under CR_Core_Memory: squeue's CPUs, sinfo's A/I/O/T,
// the reason of a job that no longer fits, the refusals, and the environment a
// nomultithread job and its steps see.
func TestWholeCores(t *testing.T) {
	testbin.Path(t, "srun") // built before any job runs: jobs find Orbit's srun first on PATH
	c := cluster.Start(t, cluster.Options{Nodes: 1, Sockets: 1, CoresPerSocket: 2, ThreadsPerCore: 2,
		SelectTypeParameters: "CR_Core_Memory", MinJobAge: 300})
	submit := func(args ...string) uint32 {
		t.Helper()
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable", "--mem=10"}, args...)...)
		id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if code != 0 || err != nil {
			t.Fatalf("sbatch %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		return uint32(id)
	}
	sh := func(cmd string, args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, cmd, args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d, stderr %q", cmd, args, code, errOut)
		}
		return out
	}
	// One task takes a whole core: two of the node's four CPUs.
	one := submit("-n1", "--wrap", "sleep 300")
	c.WaitJob(t, one, states.JobRunning)
	if got := sh("squeue", "-h", "-j", fmt.Sprint(one), "-o", "%C %t"); got != "2 R\n" {
		t.Errorf("-n1 job: squeue %%C %%t = %q, want \"2 R\"", got)
	}
	if got := sh("sinfo", "-h", "-o", "%C %T"); got != "2/2/0/4 mixed\n" {
		t.Errorf("sinfo after -n1: %q, want \"2/2/0/4 mixed\"", got)
	}
	// A second one-task job takes the other core; a third waits for Resources.
	two := submit("-n1", "--hint=nomultithread", "--wrap", "sleep 300")
	c.WaitJob(t, two, states.JobRunning)
	three := submit("-n1", "--wrap", "sleep 300")
	waitFor(t, "the third job to wait for Resources", func() bool {
		return sh("squeue", "-h", "-j", fmt.Sprint(three), "-o", "%r") == "Resources\n"
	})
	if got := sh("squeue", "-h", "-o", "%i %C %t %r", "--sort", "i"); got != fmt.Sprintf("%d 2 R None\n%d 2 R None\n%d 1 PD Resources\n", one, two, three) {
		t.Errorf("three one-task jobs on two cores: squeue\n%s", got)
	}
	if got := sh("sinfo", "-h", "-o", "%C %T"); got != "4/0/0/4 allocated\n" {
		t.Errorf("sinfo with both cores held: %q, want \"4/0/0/4 allocated\"", got)
	}
	c.Run(t, "scancel", fmt.Sprint(one), fmt.Sprint(two), fmt.Sprint(three))

	// More cores than the node has, or more threads per core, is refused at submit.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n3", "--hint=nomultithread"}, "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"},
		{[]string{"-n1", "-c3", "--ntasks-per-core=1", "--threads-per-core=1"}, "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"},
		{[]string{"--threads-per-core=4"}, "sbatch: error: Socket, core and/or thread specification can not be satisfied\n" +
			"sbatch: error: Batch job submission failed: Requested node configuration is not available\n"},
	} {
		out, errOut, code := c.Run(t, "sbatch", append(tc.args, "--wrap", "true")...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("sbatch %v: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, code, out, errOut, tc.want)
		}
	}

	// A nomultithread job holds two cores (NumCPUs=4) but reports the two threads it uses to
	// its batch script; its steps get the cores' CPUs, and --mem-per-cpu counts the threads.
	script := filepath.Join(c.WorkDir, "nomt.sh")
	body := "#!/bin/bash\n#SBATCH -n2 --hint=nomultithread --mem-per-cpu=100 -o nomt.out\n" +
		"echo batch $SLURM_CPUS_ON_NODE $SLURM_JOB_CPUS_PER_NODE $SLURM_TASKS_PER_NODE $SLURM_THREADS_PER_CORE\n" +
		"srun bash -c 'echo step $SLURM_CPUS_ON_NODE $SLURM_JOB_CPUS_PER_NODE $SLURM_STEP_TASKS_PER_NODE' | sort | uniq -c\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	idOut := sh("sbatch", "--parsable", script)
	id, err := strconv.ParseUint(strings.TrimSpace(idOut), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", idOut)
	}
	j := c.WaitJob(t, uint32(id), states.JobComplete)
	if j == nil {
		t.Fatal("nomultithread job did not complete")
	}
	if j.NumCPUs != 4 {
		t.Errorf("nomultithread -n2 job: NumCPUs=%d, want 4", j.NumCPUs)
	}
	got, err := os.ReadFile(filepath.Join(c.WorkDir, "nomt.out"))
	if err != nil {
		t.Fatal(err)
	}
	want := "batch 2 2 2 1\nsrun: cluster configuration lacks support for cpu binding\n      2 step 4 2 2\n"
	if string(got) != want {
		t.Errorf("nomultithread job output %q, want %q", got, want)
	}
	if got := sh("scontrol", "show", "job", fmt.Sprint(id)); !strings.Contains(got, "TRES=cpu=4,mem=200M,node=1,billing=4") {
		t.Errorf("nomultithread job's TRES: want cpu=4,mem=200M (100M for each of the two threads used):\n%s", got)
	}

	// srun outside an allocation asks the controller for the same.
	out, errOut, code := c.Run(t, "srun", "-n2", "--hint=nomultithread", "--mem=10", "bash", "-c", "echo $SLURM_CPUS_ON_NODE $SLURM_JOB_CPUS_PER_NODE")
	if code != 0 || out != "4 2\n4 2\n" || errOut != "" {
		t.Errorf("srun -n2 --hint=nomultithread: exit %d, stdout %q, stderr %q", code, out, errOut)
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
