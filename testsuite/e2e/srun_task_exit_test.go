package e2e_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_TaskExitReportedWhileOthersRun: srun reports a task's bad end (an exit code, a
// signal) when it arrives, as Slurm's srun does, while the step's other tasks still run:
// task 1 here ends only once the test has read srun's line for task 0 (a report held until
// the step's end would never come). Task 1's own exit is reported with the step's end, and
// after a SIGKILL srun says the step was force terminated, as on the reference.
func TestSrun_TaskExitReportedWhileOthersRun(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4})
	for i, tc := range []struct {
		task0, line string // what task 0 does, and srun's line for it
		code        int
		rest        string // the lines after task 0's, as a pattern
	}{
		{"exit 3", "srun: error: n1: task 0: Exited with exit code 3", 5,
			`^srun: error: n1: task 1: Exited with exit code 5\n$`},
		{"kill -9 $$", "srun: error: n1: task 0: Killed", 137,
			`^srun: error: n1: task 1: Exited with exit code 5\nsrun: Force Terminated StepId=\d+\.0\n$`},
	} {
		flag := filepath.Join(c.WorkDir, "reported"+string(rune('0'+i)))
		script := `if [ $SLURM_PROCID = 0 ]; then ` + tc.task0 + `; fi
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
		var first string
		var rest bytes.Buffer
		read := make(chan struct{})
		go func() {
			defer close(read)
			sc := bufio.NewScanner(errPipe)
			for sc.Scan() {
				if first == "" {
					first = sc.Text()
					os.WriteFile(flag, nil, 0o644) // task 1 may end now
					continue
				}
				rest.WriteString(sc.Text() + "\n")
			}
		}()
		select {
		case <-read:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			<-read
			cmd.Wait()
			t.Fatalf("%s: srun did not report task 0 while task 1 ran; stderr so far %q", tc.task0, first)
		}
		err = cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.code || out.String() != "done\n" || first != tc.line || !regexp.MustCompile(tc.rest).MatchString(rest.String()) {
			t.Errorf("%s: srun exit %d, stdout %q, stderr %q then %q; want exit %d, task 1's done, %q then %s",
				tc.task0, code, out.String(), first, rest.String(), tc.code, tc.line, tc.rest)
		}
	}
}
