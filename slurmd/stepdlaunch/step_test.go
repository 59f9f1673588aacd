package stepdlaunch

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

func TestStep_RoundTrip(t *testing.T) {
	spool := t.TempDir()
	path := StepPath(spool, 42, 3)
	if want := filepath.Join(spool, "job00042", "step_3.launch"); path != want {
		t.Errorf("StepPath = %s, want %s", path, want)
	}
	in := &Step{Msg: wire.LaunchTasks{JobID: 42, StepID: 3, Argv: []string{"hostname"}, Ranks: []uint32{0, 1},
		StdIn: []string{"", "/dev/null"}, MultiProg: "* true\n"}, NodeName: "n1", Spool: spool, KillWait: 30}
	if err := WriteStep(path, in); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("launch file mode %v, %v; want 0600", st.Mode(), err)
	}
	out, err := ReadStep(path)
	if err != nil {
		t.Fatal(err)
	}
	if out.Msg.JobID != 42 || out.Msg.StepID != 3 || out.NodeName != "n1" || len(out.Msg.Ranks) != 2 ||
		out.Msg.StdIn[1] != "/dev/null" || out.Msg.MultiProg != "* true\n" || out.KillWait != 30 {
		t.Errorf("read back %+v", out)
	}
	// A launch without a command or tasks is refused with the file named.
	WriteStep(path, &Step{Msg: wire.LaunchTasks{JobID: 42}, NodeName: "n1", Spool: spool})
	if _, err := ReadStep(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("empty launch: %v", err)
	}
}

func TestReadStepReady(t *testing.T) {
	if err := ReadStepReady(strings.NewReader("ok\n")); err != nil {
		t.Errorf("ok: %v", err)
	}
	var b bytes.Buffer
	WriteStepFailure(&b, 4020, "Slurmd could not execve job: Could not open stdout file /x: Permission denied")
	var f *StepFailure
	if err := ReadStepReady(&b); !errors.As(err, &f) || f.Errno != 4020 ||
		f.Text != "Slurmd could not execve job: Could not open stdout file /x: Permission denied" {
		t.Errorf("failure: %#v", err)
	}
	if err := ReadStepReady(strings.NewReader("")); err == nil || err.Error() != "slurmstepd exited before starting the tasks" {
		t.Errorf("silent stepd: %v", err)
	}
	if err := ReadStepReady(strings.NewReader("something else\n")); err == nil || err.Error() != "something else" {
		t.Errorf("other text: %v", err)
	}
}

func FuzzReadStep(f *testing.F) {
	good, _ := wire.Marshal(&Step{Msg: wire.LaunchTasks{JobID: 1, Argv: []string{"x"}, Ranks: []uint32{0}}, NodeName: "n1", Spool: "/s"})
	f.Add(good)
	f.Add([]byte("errno 12 text\n"))
	f.Add([]byte{0x81, 0xa3})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "launch")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if s, err := ReadStep(p); err == nil && (s.Msg.JobID == 0 || len(s.Msg.Argv) == 0 || len(s.Msg.Ranks) == 0) {
			t.Errorf("accepted an incomplete launch: %+v", s)
		}
		ReadStepReady(bytes.NewReader(data))
	})
}
