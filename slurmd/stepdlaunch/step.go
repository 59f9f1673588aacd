package stepdlaunch

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// An srun step runs under one slurmstepd per node and step, as in Slurm, or one per step for
// all the nodes an emulating slurmd hosts (Step.Nodes): slurmd writes a Step launch
// file and starts `slurmstepd --step FILE`; the stepd connects to srun's I/O port itself
// (srun/stepio), so the tasks' output keeps reaching srun while slurmd restarts. It answers
// on the readiness pipe like a batch stepd, except that a failure carries the Slurm errno
// slurmd answers srun with (StepFailure). SigCancel and SigTimeout end the step; other
// signals for the tasks (srun's Ctrl-C, scancel --signal) go to the tasks' process groups
// directly, found in the step's state file (slurmd/stepd).

// Step is the content of an srun step's launch file.
type Step struct {
	Msg      wire.LaunchTasks `codec:"msg"`
	NodeName string           `codec:"node_name"`
	Spool    string           `codec:"spool"` // the node's SlurmdSpoolDir, %n/%h expanded
	// MessageTimeout bounds the connection to srun, in seconds.
	MessageTimeout int    `codec:"message_timeout"`
	KillWait       int    `codec:"kill_wait"` // seconds, slurm.conf's when the launch has none
	LogFile        string `codec:"log_file"`  // where the stepd logs ("" = stderr)
	Debug          bool   `codec:"debug"`
	// LogLevels are the node's logfile and syslog levels by name (slurm.conf's SlurmdDebug
	// and SlurmdSyslogDebug, as Slurm resolves them), which srun --slurmd-debug reports.
	LogLevels     [2]string `codec:"log_levels"`
	JobFileAppend bool      `codec:"job_file_append"` // slurm.conf's, for OpenMode unset
	Memory        Memory    `codec:"memory"`
	// PropagateRlimits is as Batch's: the rlimits the node's slurm.conf propagates.
	PropagateRlimits []string `codec:"propagate_rlimits"`
	// TaskProlog and TaskEpilog are the node's slurm.conf's, run around every task.
	TaskProlog string `codec:"task_prolog"`
	TaskEpilog string `codec:"task_epilog"`
	// TaskPlugin is the node's slurm.conf's, for the lines --slurmd-debug shows of it.
	TaskPlugin string `codec:"task_plugin,omitempty"`
	// CtldAddrs, KeyPath, AuthType and AuthInfo are as Batch's: the stepd tells the
	// controller itself when srun is lost (the step's end, and the job's when srun
	// allocated it), as Slurm's srun shepherd would have.
	CtldAddrs []string `codec:"ctld_addrs"`
	KeyPath   string   `codec:"key_path"`
	AuthType  string   `codec:"auth_type"`
	AuthInfo  string   `codec:"auth_info"`
	// Nodes, when set, makes this the launch of the step on several nodes hosted by one
	// slurmd (an emulating slurmd): one slurmstepd supervises every node's tasks. Msg is
	// then the common part of the launch (wire.LaunchTasksMany.Common), NodeName and Spool
	// the first node's; Shares gives each node's own launch.
	Nodes []StepNode `codec:"nodes"`
}

// StepNode is one node's share of a several-node step launch.
type StepNode struct {
	Node   wire.LaunchNode `codec:"node"`
	Spool  string          `codec:"spool"`
	Memory Memory          `codec:"memory"`
}

// Shares are the step's launches, one per node, each as a one-node launch file would hold
// it: the same stepd code runs each node's share, with the node's own spool, environment
// and state file.
func (s *Step) Shares() []Step {
	if len(s.Nodes) == 0 {
		one := *s
		return []Step{one}
	}
	many := wire.LaunchTasksMany{Common: s.Msg}
	for _, n := range s.Nodes {
		many.Nodes = append(many.Nodes, n.Node)
	}
	out := make([]Step, len(s.Nodes))
	for i, n := range s.Nodes {
		out[i] = *s
		out[i].Nodes = nil
		out[i].Msg = many.Node(i)
		out[i].NodeName, out[i].Spool, out[i].Memory = n.Node.NodeName, n.Spool, n.Memory
	}
	return out
}

// StepPath is the launch file of step stepID of job jobID under spool.
func StepPath(spool string, jobID, stepID uint32) string {
	return filepath.Join(spool, fmt.Sprintf("job%05d", jobID), "step_"+strconv.FormatUint(uint64(stepID), 10)+".launch")
}

// WriteStep writes s to path, mode 0600, atomically.
func WriteStep(path string, s *Step) error { return writeFile(path, s) }

// ReadStep reads an srun step's launch file.
func ReadStep(path string) (*Step, error) {
	s := new(Step)
	if err := readFile(path, s); err != nil {
		return nil, err
	}
	if s.Msg.JobID == 0 || s.NodeName == "" || s.Spool == "" {
		return nil, fmt.Errorf("launch file %s: missing job id, node name or spool directory", path)
	}
	if len(s.Nodes) > 0 {
		many := wire.LaunchTasksMany{Common: s.Msg}
		for _, n := range s.Nodes {
			if n.Spool == "" {
				return nil, fmt.Errorf("launch file %s: node %s has no spool directory", path, n.Node.NodeName)
			}
			many.Nodes = append(many.Nodes, n.Node)
		}
		if len(s.Msg.Argv) == 0 {
			return nil, fmt.Errorf("launch file %s: no command or no tasks", path)
		}
		if err := many.Validate(); err != nil {
			return nil, fmt.Errorf("launch file %s: %v", path, err)
		}
		return s, nil
	}
	if len(s.Msg.Argv) == 0 || len(s.Msg.Ranks) == 0 {
		return nil, fmt.Errorf("launch file %s: no command or no tasks", path)
	}
	return s, nil
}

// ReadStepReadyAll reads a several-node step stepd's answers, one line per node in the
// order of the launch's nodes: nil for a node whose tasks run, a *StepFailure (or another
// error) for one whose tasks did not start. When the stepd stops answering (it died, or r's
// deadline passed), the nodes not answered for get that error.
func ReadStepReadyAll(r io.Reader, n int) []error {
	out := make([]error, n)
	br := bufio.NewReader(io.LimitReader(r, int64(n)*4096))
	for i := range out {
		line, err := br.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "" {
			if err == nil || err == io.EOF {
				err = fmt.Errorf("slurmstepd exited before starting the tasks")
			} else {
				err = fmt.Errorf("slurmstepd: reading its status: %w", err)
			}
			for k := i; k < n; k++ {
				out[k] = err
			}
			break
		}
		out[i] = ReadStepReady(strings.NewReader(line + "\n"))
	}
	return out
}

// StepFailure is why a step's slurmstepd did not start the tasks: the Slurm errno slurmd
// answers srun with, and the text.
type StepFailure struct {
	Errno int32
	Text  string
}

func (f *StepFailure) Error() string { return f.Text }

// WriteStepFailure writes a step failure as the readiness line ("errno N TEXT").
func WriteStepFailure(w io.Writer, errno int32, text string) {
	fmt.Fprintf(w, "errno %d %s\n", errno, strings.ReplaceAll(text, "\n", " "))
}

// ReadStepReady reads a step stepd's answer: nil once the tasks run, a *StepFailure when the
// stepd said why not, another error when it said nothing.
func ReadStepReady(r io.Reader) error {
	line, err := readLine(r)
	switch {
	case line == Ready:
		return nil
	case line == "" && err == nil:
		return fmt.Errorf("slurmstepd exited before starting the tasks")
	case line == "":
		return err
	}
	if rest, ok := strings.CutPrefix(line, "errno "); ok {
		num, text, _ := strings.Cut(rest, " ")
		if n, perr := strconv.ParseInt(num, 10, 32); perr == nil {
			return &StepFailure{Errno: int32(n), Text: text}
		}
	}
	return err
}
