package e2e_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_TaskExitReportedWhileOthersRun: srun reports a task's bad exit when it arrives,
// as Slurm's srun does, while the step's other tasks still run: task 1 here ends only once
// the test has read srun's line for task 0 (a report held until the step's end would never
// come); task 1's own exit is reported with the step's end.
func TestSrun_TaskExitReportedWhileOthersRun(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4})
	flag := filepath.Join(c.WorkDir, "reported")
	script := `if [ $SLURM_PROCID = 0 ]; then exit 3; fi
until [ -e "$FLAG" ]; do sleep 0.05; done
echo done; exit 5`
	cmd := exec.Command(testbin.Path(t, "srun"), "-n2", "bash", "-c", script)
	cmd.Env, cmd.Dir = append(commandEnv(c), "FLAG="+flag), c.WorkDir
	var out bytes.Buffer
	cmd.Stdout = &out
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if sc.Text() == "srun: error: n1: task 0: Exited with exit code 3" {
				os.WriteFile(flag, nil, 0o644)
			}
		}
	}()
	select {
	case <-read:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-read
		cmd.Wait()
		t.Fatalf("srun did not report task 0's exit while task 1 ran; stderr so far %q", lines)
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	want := []string{
		"srun: error: n1: task 0: Exited with exit code 3",
		"srun: error: n1: task 1: Exited with exit code 5",
	}
	if code != 5 || out.String() != "done\n" || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("srun: exit %d, stdout %q, stderr %q; want exit 5, task 1's done, stderr %q", code, out.String(), lines, want)
	}
}
