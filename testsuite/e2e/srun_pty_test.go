package e2e_test

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun_PtyOnTerminal runs `srun --pty` from a terminal (util-linux's script gives srun
// one, 24 rows by 80 columns): task 0 runs on a pseudo-terminal of that size, which is its
// controlling terminal, reads what is typed at srun's terminal (echoed by its terminal, as
// on the reference), finds SLURM_PTY_WIN_ROW and SLURM_PTY_WIN_COL, and its exit status is
// srun's; the other tasks' output goes nowhere, as in Slurm. Lines end in CR LF, as a
// terminal writes them.
func TestSrun_PtyOnTerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) is not installed: no terminal to run srun --pty on")
	}
	srun := testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	run := func(cmdline, input string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, script, "-qec", "stty rows 24 cols 80; "+cmdline+"; echo rc=$?", "/dev/null")
		cmd.Env = append(commandEnv(c), "PATH="+filepath.Dir(srun)+":/usr/bin:/bin")
		cmd.Dir = c.WorkDir
		pr, pw := io.Pipe()
		cmd.Stdin = pr
		cmd.WaitDelay = 5 * time.Second
		go func() {
			// Typed once the task waits for it: script forwards keys to srun's terminal;
			// then the end of input, as a here-document would give it.
			time.Sleep(2 * time.Second)
			pw.Write([]byte(input))
			time.Sleep(time.Second)
			pw.Close()
		}()
		out, err := cmd.Output()
		if err != nil && ctx.Err() != nil {
			t.Fatalf("%s: no end within a minute; output %q", cmdline, out)
		}
		return strings.ReplaceAll(string(out), "\x00", "")
	}
	out := run(`srun --pty bash -c 'tty; stty size; echo "$SLURM_PTY_WIN_ROW $SLURM_PTY_WIN_COL"; read -r x; echo "got $x"; exit 4'`, "hello\r")
	for _, want := range []string{"/dev/pts/", "\r\n24 80\r\n", "\r\n24 80\r\nhello\r\ngot hello\r\n", "rc=4\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("srun --pty printed %q; want it to hold %q", out, want)
		}
	}
	out = run(`srun -n2 --pty bash -c 'echo "task $SLURM_PROCID"'`, "")
	if !strings.Contains(out, "task 0\r\n") || strings.Contains(out, "task 1") || !strings.Contains(out, "rc=0") {
		t.Errorf("srun -n2 --pty printed %q; want task 0's line only", out)
	}
}
