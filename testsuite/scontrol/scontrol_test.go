package scontrol_test

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

// normalise removes from one command's output only what must differ between the reference and
// an Orbit cluster:
//   - job ids: the scenario's jobs become JOB_A, JOB_B, ..., also in step ids (ids depend on
//     each cluster's history);
//   - times: timestamps and RunTime (the runs happen at different moments);
//   - Priority: priority/basic counts down once per job ever submitted, and the reference is
//     shared, so only "held" (0) versus "not held" is compared;
//   - paths: WorkDir is each run's temporary directory;
//   - node memory: the partition's TRES mem= (the cluster harness gives every node
//     RealMemory=1000; the reference's node has its machine's memory);
//   - hosts: AllocNode:Sid (the submit host and sbatch's session id) and the controller's host
//     name in the ping line.
func normalise(s string, ids []string) string {
	for i, id := range ids {
		name := "JOB_" + string(rune('A'+i))
		s = regexp.MustCompile(`(JobId=|StepId=|[Jj]ob step |[Jj]ob )`+id+`\b`).ReplaceAllString(s, "${1}"+name)
	}
	s = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`).ReplaceAllString(s, "TIME")
	s = regexp.MustCompile(`RunTime=[0-9:-]+`).ReplaceAllString(s, "RunTime=T")
	s = regexp.MustCompile(`Priority=[1-9]\d*`).ReplaceAllString(s, "Priority=P")
	s = regexp.MustCompile(`(MaxMemPer\w+=\w+\n   TRES=cpu=\d+),mem=\d+M`).ReplaceAllString(s, "${1},mem=MEM")
	s = regexp.MustCompile(`WorkDir=\S+`).ReplaceAllString(s, "WorkDir=DIR")
	s = regexp.MustCompile(`AllocNode:Sid=\S+`).ReplaceAllString(s, "AllocNode:Sid=HOST:SID")
	s = regexp.MustCompile(`Slurmctld\((\w+)\) at \S+ is`).ReplaceAllString(s, "Slurmctld($1) at HOST is")
	return s
}

// TestScontrol_MatchesReference runs testdata/scenario.txt on a one-node Orbit cluster with
// the same jobs the recorder submitted to the reference (a held one, a running two-task one,
// and held, running and --hint ones with the site options) and compares every step's stdout, stderr and exit code with the recording.
func TestScontrol_MatchesReference(t *testing.T) {
	ref := filepath.Join("testdata", "reference")
	ids, err := os.ReadFile(filepath.Join(ref, "ids"))
	if err != nil {
		t.Fatalf("no recording (run record.sh against the reference): %v", err)
	}
	refIDs := strings.Fields(string(ids))
	scenario, err := os.ReadFile(filepath.Join("testdata", "scenario.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// The reference's node has no TmpDisk, where Slurm accepts a held job's --tmp; Orbit's
	// sbatch accepts --tmp only where the nodes have the disk.
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 64, ExtraConf: "NodeName=DEFAULT TmpDisk=1000\n"})
	submit := func(args ...string) string {
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
		if code != 0 {
			t.Fatalf("sbatch %v: exit %d: %s", args, code, errOut)
		}
		return strings.TrimSpace(out)
	}
	a := submit("-H", "--job-name=qsc-held", "--mem=100M", "-o", "/dev/null", "--wrap", "sleep 300")
	b := submit("--job-name=qsc-run", "-n2", "-t", "10", "--mem=100M", "-o", "/dev/null", "--wrap", "sleep 300")
	site := []string{"--sockets-per-node=1", "--cores-per-socket=1", "--threads-per-core=1", "--ntasks-per-core=1"}
	cj := submit(append([]string{"-H", "--job-name=qsc-site", "-n2", "--ntasks-per-node=2", "--mem=100M", "-o", "/dev/null",
		"--tmp=100M", "--delay-boot=5", "--switches=1@10:00", "--cpu-freq=Low-High:Performance", "--wrap", "sleep 300"}, site...)...)
	d := submit(append([]string{"--job-name=qsc-siterun", "-n1", "-t", "10", "--mem=100M", "-o", "/dev/null",
		"--delay-boot=1-0", "--switches=1@2", "--cpu-freq=2000000", "--wrap", "sleep 300"}, site...)...)
	e := submit("-H", "--job-name=qsc-hint", "--mem=100M", "-o", "/dev/null", "--hint=nomultithread",
		"--cpu-freq=Performance", "--spread-job", "--wrap", "sleep 300")
	jobs := []string{a, b, cj, d, e}
	t.Cleanup(func() { c.Run(t, "scancel", jobs...) })
	for _, id := range []string{b, d} {
		n, _ := strconv.ParseUint(id, 10, 32)
		c.WaitJob(t, uint32(n), states.JobRunning)
	}

	n := 0
	for _, line := range strings.Split(string(scenario), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		args := strings.Fields(strings.NewReplacer("@A", a, "@B", b, "@C", cj, "@D", d, "@E", e).Replace(line))
		cmd := "scontrol"
		if args[0] == "squeue" { // a squeue step (record.sh)
			cmd, args = "squeue", args[1:]
		}
		out, errOut, code := c.Run(t, cmd, args...)
		wantOut, _ := os.ReadFile(filepath.Join(ref, strconv.Itoa(n)+".out"))
		wantErr, _ := os.ReadFile(filepath.Join(ref, strconv.Itoa(n)+".err"))
		wantRC, _ := os.ReadFile(filepath.Join(ref, strconv.Itoa(n)+".rc"))
		if got, want := normalise(out, jobs), normalise(string(wantOut), refIDs); got != want {
			t.Errorf("step %d `scontrol %s`: stdout\n%q\nwant\n%q", n, line, got, want)
		}
		if got, want := normalise(errOut, jobs), normalise(string(wantErr), refIDs); got != want {
			t.Errorf("step %d `scontrol %s`: stderr\n%s\nwant\n%s", n, line, got, want)
		}
		if want := strings.TrimSpace(string(wantRC)); strconv.Itoa(code) != want {
			t.Errorf("step %d `scontrol %s`: exit %d, want %s", n, line, code, want)
		}
	}
}

// TestScontrol_NodeDrainResume drains and resumes a node on Orbit (the reference's one node
// is shared, so this is checked against the documented shape rather than a recording): the
// State= flags and the "Reason=TEXT [user@time]" line, which must survive a controller
// restart, and RESUME of a node that is not drained is refused with Slurm's error.
func TestScontrol_NodeDrainResume(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	if _, errOut, code := c.Run(t, "scontrol", "update", "NodeName=n1", "State=DRAIN", "Reason=disk swap"); code != 0 {
		t.Fatalf("drain: exit %d: %s", code, errOut)
	}
	reason := regexp.MustCompile(`(?m)^   Reason=disk swap \[\w+@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\]$`)
	check := func(when string) {
		out, _, code := c.Run(t, "scontrol", "show", "node", "n1")
		if code != 0 || !strings.Contains(out, "   State=IDLE+DRAIN ") || !reason.MatchString(out) {
			t.Fatalf("%s: show node n1 (exit %d):\n%s", when, code, out)
		}
	}
	check("after drain")
	c.RestartController(t)
	check("after a controller restart")
	if _, errOut, code := c.Run(t, "scontrol", "update", "NodeName=n1", "State=RESUME"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	out, _, _ := c.Run(t, "scontrol", "show", "node", "n1")
	if !strings.Contains(out, "   State=IDLE ") || strings.Contains(out, "Reason=") {
		t.Fatalf("after resume: show node n1:\n%s", out)
	}
	_, errOut, code := c.Run(t, "scontrol", "update", "NodeName=n2", "State=RESUME")
	if code != 1 || errOut != "slurm_update error: Invalid node state specified\n" {
		t.Fatalf("resume of an idle node: exit %d, %q", code, errOut)
	}
}
