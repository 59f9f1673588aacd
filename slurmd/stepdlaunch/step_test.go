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
	many, _ := wire.Marshal(&Step{Msg: wire.LaunchTasks{JobID: 1, Argv: []string{"x"}, Environment: []string{"A=1"}},
		NodeName: "n1", Spool: "/s", Nodes: []StepNode{{Node: wire.LaunchNode{NodeName: "n1", Ranks: []uint32{0}}, Spool: "/s1"},
			{Node: wire.LaunchNode{NodeName: "n2", Ranks: []uint32{1}}, Spool: "/s2"}}})
	f.Add(many)
	f.Add([]byte("errno 12 text\n"))
	f.Add([]byte("ok\nerrno 4020 no\nok\n"))
	f.Add([]byte{0x81, 0xa3})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "launch")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if s, err := ReadStep(p); err == nil && (s.Msg.JobID == 0 || len(s.Msg.Argv) == 0 || len(s.Msg.Ranks) == 0 && len(s.Nodes) == 0) {
			t.Errorf("accepted an incomplete launch: %+v", s)
		}
		ReadStepReady(bytes.NewReader(data))
		if errs := ReadStepReadyAll(bytes.NewReader(data), 3); len(errs) != 3 {
			t.Errorf("ReadStepReadyAll gave %d answers for 3 nodes", len(errs))
		}
	})
}

// TestStep_SharesOfSeveralNodes: a launch for several nodes of one slurmd reads back, and
// each node's share is the one-node launch it would have had: its name, spool, ranks and the
// step's environment followed by its own variables.
func TestStep_SharesOfSeveralNodes(t *testing.T) {
	spool := t.TempDir()
	path := StepPath(spool, 42, 0)
	in := &Step{Msg: wire.LaunchTasks{JobID: 42, Argv: []string{"true"}, Environment: []string{"A=1"}},
		NodeName: "n1", Spool: spool + "/n1", KillWait: 30, Nodes: []StepNode{
			{Node: wire.LaunchNode{NodeName: "n1", NodeID: 0, Ranks: []uint32{0, 1}, Env: []string{"SLURM_NODEID=0"}}, Spool: spool + "/n1"},
			{Node: wire.LaunchNode{NodeName: "n2", NodeID: 1, Ranks: []uint32{2}, Env: []string{"SLURM_NODEID=1"}}, Spool: spool + "/n2"},
		}}
	if err := WriteStep(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadStep(path)
	if err != nil {
		t.Fatal(err)
	}
	sh := out.Shares()
	if len(sh) != 2 || sh[1].NodeName != "n2" || sh[1].Spool != spool+"/n2" || sh[1].Msg.NodeID != 1 ||
		len(sh[1].Msg.Ranks) != 1 || sh[1].Msg.Ranks[0] != 2 || strings.Join(sh[1].Msg.Environment, " ") != "A=1 SLURM_NODEID=1" ||
		sh[0].KillWait != 30 || len(sh[0].Nodes) != 0 || strings.Join(sh[0].Msg.Environment, " ") != "A=1 SLURM_NODEID=0" {
		t.Errorf("shares %+v", sh)
	}
	// A node repeated, or without a spool, is refused with the file named.
	in.Nodes[1].Node.NodeName = "n1"
	WriteStep(path, in)
	if _, err := ReadStep(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("repeated node: %v", err)
	}
	in.Nodes[1].Node.NodeName, in.Nodes[1].Spool = "n2", ""
	WriteStep(path, in)
	if _, err := ReadStep(path); err == nil || !strings.Contains(err.Error(), "spool") {
		t.Errorf("node without spool: %v", err)
	}
}

func TestReadStepReadyAll(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("ok\n")
	WriteStepFailure(&b, 4020, "Slurmd could not execve job: no")
	errs := ReadStepReadyAll(&b, 3)
	var f *StepFailure
	if errs[0] != nil || !errors.As(errs[1], &f) || f.Errno != 4020 || errs[2] == nil ||
		errs[2].Error() != "slurmstepd exited before starting the tasks" {
		t.Errorf("answers %v", errs)
	}
}
