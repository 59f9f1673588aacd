package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// stepsScript runs, inside a two-CPU job, the step patterns of Slurm 22.05 whose outcome
// depends on the CPUs steps hold. Every wait is on a file another step writes, never on a
// clock, so a step that started when it should have waited (or waited when it should have
// started) shows as a wrong line or a job that runs into its time limit.
const stepsScript = `#!/bin/bash
#SBATCH -n2 -t 2 -o steps.out
gate() { while [ ! -e "$1" ]; do sleep 0.05; done; }
# A default step holds every CPU of its node: a second one waits for it.
srun -n1 bash -c 'touch a.started; while [ ! -e a.release ]; do sleep 0.05; done; echo A cpus=$SLURM_CPUS_ON_NODE' &
gate a.started
srun -n1 bash -c 'echo B' > b.out 2> b.err &
while ! grep -q 'temporarily disabled' b.err 2>/dev/null; do sleep 0.05; done
echo "B before release: $(cat b.out)"
touch a.release
wait
cat b.out b.err
# --exact (and --exclusive) steps hold one CPU each: two run at once, a third waits.
srun --exact -n1 bash -c 'touch e1; while [ ! -e e2 ]; do sleep 0.05; done; echo E1 cpus=$SLURM_CPUS_ON_NODE' &
srun --exclusive -n1 bash -c 'touch e2; while [ ! -e e1 ]; do sleep 0.05; done; echo E2 cpus=$SLURM_CPUS_ON_NODE' &
wait
# --overlap shares the CPUs a default step holds.
srun -n1 bash -c 'touch o1; while [ ! -e o2 ]; do sleep 0.05; done; echo O1' &
gate o1
srun --overlap -n1 bash -c 'touch o2; echo O2'
wait
# More than the job has is refused at once, not waited for.
srun --exact -n1 -c3 true
echo "too many: $?"
`

// TestSrunSteps_ShareCPUsAsSlurm checks how steps of one job share its CPUs, as Slurm 22.05
// does (the same script on the reference prints the same lines, in the same order apart from
// the ones that race): a default step waits while another holds the CPUs, saying so once
// and again when it starts; --exact and --exclusive steps hold only their tasks' CPUs, which
// SLURM_CPUS_ON_NODE shows; --overlap steps wait for nothing; a step larger than the job is
// refused.
func TestSrunSteps_ShareCPUsAsSlurm(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	script := writeScript(t, c, "steps.sh", stepsScript)
	out, errOut, code := c.Run(t, "sbatch", "--parsable", script)
	if code != 0 {
		t.Fatalf("sbatch: exit %d: %s", code, errOut)
	}
	id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	j := c.WaitJob(t, uint32(id), states.JobComplete, states.JobFailed, states.JobTimeout)
	b, _ := os.ReadFile(filepath.Join(c.WorkDir, "steps.out"))
	got := string(b)
	if st := states.JobState(j.State).Base(); st != states.JobComplete {
		t.Fatalf("job ended %s, output:\n%s", st, got)
	}
	for _, want := range []string{
		"B before release: \n",
		"A cpus=2\n",
		"B\nsrun: Job " + strings.TrimSpace(out) + " step creation temporarily disabled, retrying (Requested nodes are busy)\nsrun: Step created for job " + strings.TrimSpace(out) + "\n",
		"E1 cpus=1\n", "E2 cpus=1\n",
		"O2\n", "O1\n",
		"srun: error: Unable to create step for job " + strings.TrimSpace(out) + ": More processors requested than permitted\ntoo many: 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("job output lacks %q:\n%s", want, got)
		}
	}
}

// TestSrunRelativeAndPreserveEnv: srun -r starts the step at that node of the allocation;
// -E leaves the task counts the job's environment has (as the reference prints them:
// SLURM_NTASKS 3 for a one-task step of a three-task job); a one-task step of the two-node
// job runs on one node, with Slurm's warning, so -r 1 fits; and -r without room after it
// is refused with Slurm's message (lines from the reference, 22.05.8).
func TestSrunRelativeAndPreserveEnv(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	script := writeScript(t, c, "rel.sh", `#!/bin/bash
#SBATCH -N2 -n3 -o rel.out
srun -r 1 -N1 -n1 printenv SLURMD_NODENAME
srun -r 0 -N1 -n1 printenv SLURMD_NODENAME
srun -E -N1 -n1 printenv SLURM_NTASKS SLURM_NNODES SLURM_STEP_NUM_TASKS
srun -r 1 -n1 true
echo "rc=$?"
srun -r 2 -n1 true
echo "rc=$?"
`)
	id := submit(t, c, script)
	if j := c.WaitJob(t, id, states.JobComplete, states.JobFailed); states.JobState(j.State).Base() != states.JobComplete {
		t.Fatalf("job ended %s", states.JobState(j.State))
	}
	b, _ := os.ReadFile(filepath.Join(c.WorkDir, "rel.out"))
	want := "n2\nn1\n3\n2\n1\n" +
		"srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\nrc=0\n" +
		"srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n" +
		"srun: error: --relative and SLURM_JOB_NUM_NODES option incompatible with count of allocated nodes (2+1>2)\nrc=1\n"
	if string(b) != want {
		t.Errorf("job output:\n%s\nwant:\n%s", b, want)
	}
}

// TestSrunSteps_MaxStepCount: a job that has created MaxStepCount steps gets no more, with
// Slurm 22.05's message and exit code (recorded against the reference with MaxStepCount=2).
func TestSrunSteps_MaxStepCount(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "MaxStepCount=2\n"})
	out, errOut, code := c.Run(t, "salloc", "-n1", "sh", "-c", "srun true; echo rc=$?; srun true; echo rc=$?; srun true; echo rc=$?")
	if want := "rc=0\nrc=0\nrc=1\n"; code != 0 || out != want {
		t.Fatalf("salloc: %q, exit %d; want %q\n%s", out, code, want, errOut)
	}
	if !strings.Contains(errOut, ": Step limit reached for this job\n") || !strings.Contains(errOut, "srun: error: Unable to create step for job ") {
		t.Errorf("third srun's error missing from:\n%s", errOut)
	}
}

// TestSrunNodeRangeAndSpread: srun's own allocation with -N min-max aims at the maximum and
// its step spans every node it got; --spread-job takes as many nodes as tasks (at most the
// cluster's); --use-min-nodes aims at the minimum. Lines as the reference printed them on
// idle nodes: -N1-3 -n8 and --spread-job -n8 ran 6,1,1 tasks on three nodes, --spread-job
// -n3 one on each of three, -N1-3 -n8 --use-min-nodes all on one, -N2-3 on two (7,1).
func TestSrunNodeRangeAndSpread(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 8})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-N1-3", "-n8"}, "n1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn2 3 6,1(x2) 3\nn3 3 6,1(x2) 3\n"},
		{[]string{"--spread-job", "-n8"}, "n1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn1 3 6,1(x2) 3\nn2 3 6,1(x2) 3\nn3 3 6,1(x2) 3\n"},
		{[]string{"--spread-job", "-n2"}, "n1 2 1(x2) 2\nn2 2 1(x2) 2\n"},
		{[]string{"-N1-3", "-n8", "--use-min-nodes"}, strings.Repeat("n1 1 8 1\n", 8)},
		{[]string{"-N2-3", "-n8", "--use-min-nodes"}, strings.Repeat("n1 2 7,1 2\n", 7) + "n2 2 7,1 2\n"},
	} {
		args := append(tc.args, "bash", "-c", "echo $SLURMD_NODENAME $SLURM_JOB_NUM_NODES $SLURM_JOB_CPUS_PER_NODE $SLURM_STEP_NUM_NODES")
		out, errOut, code := c.Run(t, "srun", args...)
		lines := strings.SplitAfter(out, "\n")
		sort.Strings(lines)
		if got := strings.Join(lines, ""); code != 0 || got != tc.want {
			t.Errorf("srun %v: rc %d, stderr %q, output:\n%s\nwant:\n%s", tc.args, code, errOut, got, tc.want)
		}
	}
}

// TestSrunPlaneAndArbitrary: --distribution=plane=N and arbitrary layouts (-w with repeats,
// SLURM_HOSTFILE) give each task the node the reference gives it, outside and inside an
// allocation (recorded from Slurm 22.05 on nodes of the same shape).
func TestSrunPlaneAndArbitrary(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 8})
	hostfile := filepath.Join(c.Dir, "hosts")
	if err := os.WriteFile(hostfile, []byte("# tasks in order\nn2\nn1,n2\nn3*1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ranks := func(env []string, args ...string) string {
		t.Helper()
		out, errOut, code := c.RunEnv(t, env, "srun", append(args, "-l", "printenv", "SLURMD_NODENAME")...)
		if code != 0 {
			t.Fatalf("srun %v: exit %d: %s", args, code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		sort.Slice(lines, func(i, j int) bool { return rankOf(lines[i]) < rankOf(lines[j]) })
		return strings.Join(lines, " ")
	}
	for _, tc := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"-N2", "-n4", "-m", "plane=3"}, "0: n1 1: n1 2: n1 3: n2"},
		{nil, []string{"-N2", "-n8", "-m", "plane=2"}, "0: n1 1: n1 2: n2 3: n1 4: n1 5: n1 6: n1 7: n1"},
		{nil, []string{"-m", "arbitrary", "-w", "n2,n1,n2"}, "0: n2 1: n1 2: n2"},
		{[]string{"SLURM_HOSTFILE=" + hostfile}, nil, "0: n2 1: n1 2: n2 3: n3"},
		{[]string{"SLURM_HOSTFILE=" + hostfile}, []string{"-n3"}, "0: n2 1: n1 2: n2"},
	} {
		if got := ranks(tc.env, tc.args...); got != tc.want {
			t.Errorf("srun %v %v: %s, want %s", tc.env, tc.args, got, tc.want)
		}
	}
	// Too few names, and a step inside an allocation naming nodes it does not have.
	if _, errOut, code := c.RunEnv(t, []string{"SLURM_HOSTFILE=" + hostfile}, "srun", "-n5", "true"); code != 1 ||
		errOut != "srun: error: Too few NodeNames in Slurm Hostfile\nsrun: error: Failure getting NodeNames from hostfile\n" {
		t.Errorf("srun -n5 with 4 names: exit %d, %q", code, errOut)
	}
	// In an allocation of n1 (3 CPUs) and n3 (1): n3 may take two tasks, the step's total
	// is what counts; n2 is not the job's.
	script := "srun -m arbitrary -w n3,n3,n1 -l printenv SLURMD_NODENAME | sort -n | tr '\\n' ' '; " +
		"srun -m arbitrary -w n2,n1 true"
	out, errOut, code := c.Run(t, "salloc", "-w", "n1,n3", "-n4", "bash", "-c", script)
	if want := "0: n3 1: n3 2: n1 "; code == 0 || out != want ||
		!strings.Contains(errOut, "Requested node configuration is not available") {
		t.Errorf("salloc -w n1,n3: exit %d, out %q, err %q; want %q then a refusal of n2", code, out, errOut, want)
	}
	// A step in a three-node allocation whose SLURM_HOSTFILE names two nodes runs on those
	// two only (Slurm's test1.59).
	hostfile2 := filepath.Join(c.Dir, "hosts2")
	if err := os.WriteFile(hostfile2, []byte("n2\nn1\nn1\nn1\nn1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script = "export SLURM_HOSTFILE=" + hostfile2 + "; for n in 5 4; do srun -l -n$n -O printenv SLURMD_NODENAME | sort -n | tr '\\n' ' '; echo; done"
	out, errOut, code = c.Run(t, "salloc", "-N3", "bash", "-c", script)
	if want := "0: n2 1: n1 2: n1 3: n1 4: n1 \n0: n2 1: n1 2: n1 3: n1 \n"; code != 0 || out != want {
		t.Errorf("salloc -N3 with a hostfile of n2 and n1: exit %d, out %q, err %q; want %q", code, out, errOut, want)
	}
}

// rankOf is the rank of a "N: text" line of srun -l.
func rankOf(line string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(line, ":", 2)[0]))
	return n
}

// TestSrunStepNodesInAllocation: inside an allocation of four nodes, srun places steps as
// Slurm 22.05 did on the reference (each line below is what the same command printed there):
// -x leaves its nodes out (and says so when -N cannot be met), -N min-max spans the maximum
// with a task per node, -w with a larger -N adds the job's first other nodes, -c without -n
// runs as many tasks as the allocation's CPUs hold; a job of -N1-3 gets three free nodes.
func TestSrunStepNodesInAllocation(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 4})
	// Each line: how many tasks ran on each step node list, or srun's lines (sorted).
	steps := []struct{ args, want string }{
		{"-x n1", "3 n[2-4]"},
		{"-x n1 -N1-2", "2 n[2-3]"},
		{"-N1-2", "2 n[1-2]"},
		{"-w n2 -N2", "2 n[1-2]"},
		{"-w n[2-3] -n1", "1 n2;1 srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1"},
		{"-c2", "8 n[1-4]"},
		{"-x n1,n2,n3,n4", "1 srun: error: Hostlist is empty!  Can't run job."},
		{"-x n[1-2] -N3", "1 srun: error: Are required nodes explicitly excluded?;1 srun: error: Only allocated 2 nodes asked for 3"},
	}
	var script strings.Builder
	// The allocation's node count is left out of the environment, as the reference was run.
	script.WriteString("unset SLURM_NNODES SLURM_JOB_NUM_NODES SLURM_NTASKS SLURM_NPROCS SLURM_NTASKS_PER_NODE\n")
	for _, s := range steps {
		fmt.Fprintf(&script, "r=$(srun %s printenv SLURM_STEP_NODELIST 2>&1 | sort | uniq -c | sed 's/^ *//' | paste -sd';'); echo \"$r\"\n", s.args)
	}
	out, errOut, code := c.Run(t, "salloc", "-N4", "--ntasks-per-node=4", "-Q", "bash", "-c", script.String())
	if code != 0 {
		t.Fatalf("salloc: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, s := range steps {
		got := ""
		if i < len(lines) {
			got = lines[i]
		}
		if got != s.want {
			t.Errorf("srun %s: %q, want %q", s.args, got, s.want)
		}
	}
	// A one-node step's tasks see the job's nodes as SLURM_NODELIST (Slurm's test1.85).
	out, errOut, code = c.Run(t, "salloc", "-N1-3", "-Q", "bash", "-c",
		"echo $SLURM_NNODES $SLURM_JOB_NODELIST; srun hostname | wc -l; srun -n1 -N1 printenv SLURM_NODELIST SLURM_STEP_NODELIST")
	if want := "3 n[1-3]\n3\nn[1-3]\nn1\n"; code != 0 || out != want {
		t.Errorf("salloc -N1-3: exit %d, %q (%s), want %q", code, out, errOut, want)
	}
}

// TestSrunDebuggerTest: srun --debugger-test starts the tasks stopped at their exec, as for
// a parallel debugger, and prints where each is ("task:N, host:NODE, pid:PID,
// executable:NAME", Slurm's proctable lines, as the reference printed them); the tasks run
// nothing until the step is cancelled (on Slurm they wait for the time limit).
func TestSrunDebuggerTest(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	script := `srun -N2 -n4 --debugger-test touch ran 2> dbg.err &
for i in $(seq 300); do [ "$(grep -c 'task:' dbg.err)" = 4 ] && break; sleep 0.1; done
for pid in $(sed -n 's/.*pid:\([0-9]*\),.*/\1/p' dbg.err); do awk '{print $3}' /proc/$pid/stat; done
scancel $SLURM_JOB_ID.0
wait
sed 's/pid:[0-9]*/pid:PID/' dbg.err | grep -v CANCELLED | sort
ls ran 2>&1 | sed 's/.*cannot access.*/no ran/'
`
	out, errOut, code := c.Run(t, "salloc", "-N2", "-n4", "-Q", "bash", "-c", script)
	want := "T\nT\nT\nT\n" + "srun: Job step aborted: Waiting up to 4 seconds for job step to finish.\n" +
		"srun: error: n1: tasks 0-1: Killed\nsrun: error: n2: tasks 2-3: Killed\n" +
		"srun: task:0, host:n1, pid:PID, executable:touch\nsrun: task:1, host:n1, pid:PID, executable:touch\n" +
		"srun: task:2, host:n2, pid:PID, executable:touch\nsrun: task:3, host:n2, pid:PID, executable:touch\n" +
		"no ran\n"
	if code != 0 || out != want {
		t.Errorf("salloc: exit %d, stdout\n%s\nwant\n%s\nstderr %s", code, out, want, errOut)
	}
}
