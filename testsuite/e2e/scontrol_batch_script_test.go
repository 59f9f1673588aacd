package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrolWriteBatchScript: `scontrol write batch_script` gives back a job's script byte
// for byte, to slurm-JOBID.sh by default, to a named file, or to stdout with "-", after the
// job has run too; its failures print Slurm's "job script retrieval failed: ..." and, as in
// Slurm 22.05, still exit 0 and leave no file behind. `show job -dd` prints no script in
// 22.05. And sbatch --mem above every node's memory is refused with Slurm's two lines.
func TestScontrolWriteBatchScript(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	body := "#!/bin/bash\n#SBATCH -J bs_file\n#SBATCH -o /dev/null\necho 'two  spaces'\n\ttabbed\nexit 0"
	path := filepath.Join(c.WorkDir, "job.sh")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	submit := func(args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
		if code != 0 {
			t.Fatalf("sbatch %q: exit %d: %s", args, code, errOut)
		}
		return strings.TrimSpace(out)
	}
	held := submit("-H", path)
	ran := submit("-J", "bs_wrap", "-o", "/dev/null", "--wrap", "true")
	ranID, _ := strconv.ParseUint(ran, 10, 32)
	c.WaitJob(t, uint32(ranID), states.JobComplete)

	check := func(args []string, wantOut, wantErr string) {
		t.Helper()
		out, errOut, code := c.Run(t, "scontrol", args...)
		if out != wantOut || errOut != wantErr || code != 0 {
			t.Errorf("scontrol %q: stdout %q, stderr %q, exit %d; want %q, %q, exit 0", args, out, errOut, code, wantOut, wantErr)
		}
	}
	file := func(name, want string) {
		t.Helper()
		got, err := os.ReadFile(filepath.Join(c.WorkDir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	def := "slurm-" + held + ".sh"
	check([]string{"write", "batch_script", held}, "batch script for job "+held+" written to "+def+"\n", "")
	file(def, body)
	check([]string{"write", "batch_script", held, "-"}, body, "")
	check([]string{"write", "batch_scr", "JobId=" + held, "named.sh"}, "", "job script retrieval failed: Invalid job id specified\n")
	check([]string{"write", "batch_scr", held + "x", "named.sh"}, "batch script for job "+held+" written to named.sh\n", "")
	file("named.sh", body)
	check([]string{"-Q", "write", "batch_script", held, "quiet.sh"}, "", "")
	file("quiet.sh", body)
	wrap := "#!/bin/sh\n# This script was created by sbatch --wrap.\n\ntrue\n"
	check([]string{"write", "batch_script", ran, "-"}, wrap, "") // finished, not yet purged

	// Failures: the file Slurm opened first is removed again, even one that existed.
	if err := os.WriteFile(filepath.Join(c.WorkDir, "old.sh"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	check([]string{"write", "batch_script", "999999", "old.sh"}, "", "job script retrieval failed: Invalid job id specified\n")
	check([]string{"-Q", "write", "batch_script", "999999"}, "", "job script retrieval failed: Invalid job id specified\n")
	for _, gone := range []string{"old.sh", "slurm-999999.sh"} {
		if _, err := os.Stat(filepath.Join(c.WorkDir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s after a failed write: %v", gone, err)
		}
	}
	check([]string{"write", "batch_script", held, filepath.Join(c.WorkDir, "no", "such", "dir")}, "",
		"failed to open file `"+filepath.Join(c.WorkDir, "no", "such", "dir")+"`: No such file or directory\n")
	out, errOut, code := c.Run(t, "salloc", "--no-shell", "-J", "bs_alloc")
	if code != 0 {
		t.Fatalf("salloc --no-shell: exit %d, %q %q", code, out, errOut)
	}
	var alloc string
	if f := strings.Fields(errOut); len(f) >= 5 && f[1] == "Granted" {
		alloc = f[4]
	} else {
		t.Fatalf("salloc --no-shell said %q", errOut)
	}
	defer c.Run(t, "scancel", alloc)
	check([]string{"write", "batch_script", alloc, "-"}, "", "job script retrieval failed: Job script not specified\n")

	// 22.05's show job -dd is -d: no script after the record.
	d, _, _ := c.Run(t, "scontrol", "show", "job", "-d", held)
	dd, _, code := c.Run(t, "scontrol", "show", "job", "-dd", held)
	if code != 0 || dd != d || strings.Contains(dd, "two  spaces") || !strings.HasSuffix(dd, "   Power=\n   \n\n") {
		t.Errorf("show job -dd (exit %d):\n%s\nwant the -d output:\n%s", code, dd, d)
	}

	// sbatch and srun --mem above every node's RealMemory (1000 MB here), as the reference.
	out, errOut, code = c.Run(t, "sbatch", "-J", "bs_mem", "--mem=300G", "--wrap", "true")
	want := "sbatch: error: Memory specification can not be satisfied\n" +
		"sbatch: error: Batch job submission failed: Requested node configuration is not available\n"
	if out != "" || errOut != want || code != 1 {
		t.Errorf("sbatch --mem=300G: stdout %q, stderr %q, exit %d; want %q, exit 1", out, errOut, code, want)
	}
	out, errOut, code = c.Run(t, "srun", "-J", "bs_mem", "--mem=300G", "true")
	want = "srun: error: Memory specification can not be satisfied\n" +
		"srun: error: Unable to allocate resources: Requested node configuration is not available\n"
	if out != "" || errOut != want || code != 1 {
		t.Errorf("srun --mem=300G: stdout %q, stderr %q, exit %d; want %q, exit 1", out, errOut, code, want)
	}
	out, errOut, code = c.Run(t, "sbatch", "--test-only", "-J", "bs_mem", "--mem=300G", "--wrap", "true")
	if want := "allocation failure: Requested node configuration is not available\n"; out != "" || errOut != want || code != 1 {
		t.Errorf("sbatch --test-only --mem=300G: stdout %q, stderr %q, exit %d; want %q, exit 1", out, errOut, code, want)
	}
}
