package stepd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/slurmd/taskexec"
)

// BatchStep is the StepID of a job's batch step.
const BatchStep = "batch"

// batchStepNum is the number Slurm uses for the batch step (SLURM_BATCH_SCRIPT) in socket
// names.
const batchStepNum = 4294967294

// DefaultKillWait is slurm.conf's KillWait default, in seconds.
const DefaultKillWait = 30

// StepSpec is everything the supervisor needs to run one step's tasks on this node.
type StepSpec struct {
	JobID    uint32
	StepID   string // BatchStep or a step number such as "0"
	NodeName string // this node's NodeName, used in "slurmstepd-<NodeName>: error: ..." lines
	Spool    string // SlurmdSpoolDir: holds job%05u/slurm_script and the step state file

	UID    uint32
	GID    uint32
	Groups []uint32 // supplementary groups; nil: the user's groups from the group database

	WorkDir string   // the job's working directory; /tmp when it cannot be entered, as in Slurm
	Env     []string // the tasks' full environment

	// Script is the batch script's text, written to <Spool>/job%05u/slurm_script (mode 0700,
	// owned by UID) for a batch step; the batch task's Argv[0] is replaced by that path and
	// the script is executed directly, so its shebang picks the interpreter. Argv[1:] are the
	// script's arguments.
	Script []byte

	Tasks []Task // the tasks to run on this node

	TimeLimit int // seconds; 0 is unlimited
	// LimitAtController: the controller ends the step at TimeLimit, as Slurm's slurmctld
	// does (it alone knows how long a job was suspended); the supervisor then times only
	// PreTimeout from it and is ended by the controller's terminate.
	LimitAtController bool
	KillWait          int            // seconds between the time-out or cancel signal and SIGKILL
	TimeoutSignal     syscall.Signal // sent at the time limit and on Kill; 0 is SIGTERM

	// PreTimeout is sbatch --signal=[B:]sig@time; nil for none.
	PreTimeout *PreTimeoutSignal

	// TaskPidEnv names a variable (Slurm's SLURM_TASK_PID) that each task finds set to its
	// own pid: the child writes it into its environment between fork and exec
	// (slurmd/taskexec), so a task is one exec, as in Slurm.
	TaskPidEnv string

	// StopAtExec starts every task stopped at its exec (srun --debugger-test, Slurm's
	// parallel debug launch): the tasks run no further; the step ends when it is killed.
	StopAtExec bool

	// ControlSocket is the path the supervisor will serve; recorded in the state file. Empty:
	// Slurm's name, <Spool>/<NodeName>_<JobID>.<StepID> (the batch step as 4294967294).
	ControlSocket string

	// SharedSupervisor says the supervising process has children of its own that are not
	// the step's (a test or an emulator running steps in-process beside other processes
	// it starts): its unregistered children are then never taken for the step's orphans.
	SharedSupervisor bool

	// NoEndState says the caller removes the state file as soon as the step ends (an srun
	// step's share, whose end srun reports): the end is then not written first. A reader
	// treats a missing state file as it treats an ended step's.
	NoEndState bool

	// Group names the steps of one supervising process that are shares of the same job
	// step on several nodes (slurmstepd for an emulating slurmd): while every step the
	// process supervises is of one group, an orphan reparented to the process is one of
	// theirs, and the single-step orphan rule applies to them all (a process a sibling
	// already counts as its own stays the sibling's). Empty: a step of its own.
	Group string

	// TaskExited, when set, is called once for each task as it ends (before the step's
	// cleanup), so srun learns of a failed task while the others still run (--kill-on-bad-exit).
	TaskExited func(TaskExit)

	// TaskScripts are the task prologs and epilogs (task_prolog.go).
	TaskScripts TaskScripts

	// PostTerm, when set, is called as each task ends, before TaskExited, one call at a time
	// (Slurm's task plugin post_term hook). It may change the task's Status (Slurm's SIG_OOM
	// after an oom-kill); a message it returns is written where the first task's stderr goes
	// (the batch step's error file, or srun), as slurmstepd's own error lines are.
	PostTerm func(*TaskExit) string

	// Rlimits are the soft limits propagated from the submitting shell (SLURM_RLIMIT_*,
	// already taken out of Env: compat/rlimits.Take). Each task (the batch script too) sets
	// them in its child just before exec, as the user; a slurm.conf-propagated limit above
	// the hard limit is lowered to it, a user-requested one (--propagate) that cannot be set
	// is reported on the task's stderr ("Can't propagate RLIMIT_X of V from submit host")
	// and the task runs with the node's limit.
	Rlimits []rlimits.Request

	// Cgroup, when set, is the step's memory cgroup (task/cgroup): the supervisor joins it
	// while it forks the tasks, so that they start inside it, and leaves it again at once.
	Cgroup *MemoryCgroup
}

// PreTimeoutSignal is sbatch/srun --signal=[B:]sig@time.
type PreTimeoutSignal struct {
	Signal    syscall.Signal
	Seconds   int  // before the time limit
	BatchOnly bool // "B:": signal only the batch shell; otherwise the steps but not the batch shell
}

// Task is one task of the step on this node.
type Task struct {
	Rank    int      // global task id (%t, SLURM_PROCID)
	LocalID int      // task id on this node (SLURM_LOCALID)
	Argv    []string // argv[0] is executed as given (a path); ignored for the batch script
	// Env holds this task's own variables (SLURM_PROCID, SLURM_LOCALID): added to
	// StepSpec.Env, replacing entries of the same name.
	Env    []string
	Stdin  Stdio
	Stdout Stdio
	Stderr Stdio
	// Inherit, when set, is a descriptor the task keeps open at its own number (the PMI
	// socket its PMI_FD names); the supervisor closes its copy once the task is forked.
	Inherit *os.File
	// Pty, when set, runs the task on a pseudo-terminal of that size (srun --pty): its
	// stdin, stdout and stderr, and its controlling terminal. What it writes goes to
	// Stdout.Writer, Stdin.Reader feeds it; Stderr is unused. At most one task has one.
	Pty *Winsize
}

// Stdio says where one of a task's standard streams goes. The zero value is /dev/null.
// At most one of Path, Writer and Reader is set; Reader only for stdin, Writer only for
// stdout and stderr. A relative Path is relative to StepSpec.WorkDir.
type Stdio struct {
	Path   string    // a file; "/dev/null" is allowed
	Append bool      // --open-mode=append; otherwise truncate
	Writer io.Writer // stream the output to the caller (srun)
	Reader io.Reader // stream the input from the caller (srun)
	// Label, for an output Path, prefixes each line the task writes there (srun -l with
	// per-task files: Slurm's slurmstepd labels them too). The supervisor then copies the
	// output through a pipe instead of handing the file to the task.
	Label string
}

// IsBatch reports whether the spec is for the batch step.
func (s *StepSpec) IsBatch() bool { return s.StepID == BatchStep }

// validate checks what can be checked without touching the system.
func (s *StepSpec) validate() error {
	if s.JobID == 0 {
		return errors.New("stepd: job id 0 is not a valid job id")
	}
	if s.StepID != BatchStep {
		if _, err := strconv.ParseUint(s.StepID, 10, 32); err != nil {
			return fmt.Errorf("stepd: invalid step id %q: want %q or a step number", s.StepID, BatchStep)
		}
	}
	if s.Spool == "" {
		return errors.New("stepd: no spool directory (SlurmdSpoolDir) given")
	}
	if len(s.Tasks) == 0 {
		return fmt.Errorf("stepd: step %d.%s has no tasks on this node", s.JobID, s.StepID)
	}
	if s.IsBatch() {
		if len(s.Script) == 0 {
			return fmt.Errorf("stepd: batch step of job %d has no script", s.JobID)
		}
		if len(s.Tasks) != 1 {
			return fmt.Errorf("stepd: batch step of job %d has %d tasks, want 1", s.JobID, len(s.Tasks))
		}
	}
	for i, c := range s.TaskPidEnv {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return fmt.Errorf("stepd: TaskPidEnv %q is not a variable name", s.TaskPidEnv)
		}
	}
	if s.TimeLimit < 0 || s.KillWait < 0 {
		return errors.New("stepd: negative time limit or KillWait")
	}
	if p := s.PreTimeout; p != nil && (p.Seconds < 0 || p.Seconds > 65535 || p.Signal <= 0) {
		return fmt.Errorf("stepd: invalid --signal specification %d@%d", p.Signal, p.Seconds)
	}
	seen := map[int]bool{}
	for i, t := range s.Tasks {
		if !s.IsBatch() && (len(t.Argv) == 0 || t.Argv[0] == "") {
			return fmt.Errorf("stepd: task %d of step %d.%s has no command", t.Rank, s.JobID, s.StepID)
		}
		if seen[t.LocalID] {
			return fmt.Errorf("stepd: task %d: local id %d used twice", i, t.LocalID)
		}
		seen[t.LocalID] = true
		if t.Stdin.Writer != nil || t.Stdout.Reader != nil || t.Stderr.Reader != nil {
			return fmt.Errorf("stepd: task %d: stdin takes a Reader, stdout and stderr a Writer", t.Rank)
		}
		for _, io := range []Stdio{t.Stdin, t.Stdout, t.Stderr} {
			n := 0
			if io.Path != "" {
				n++
			}
			if io.Writer != nil {
				n++
			}
			if io.Reader != nil {
				n++
			}
			if n > 1 {
				return fmt.Errorf("stepd: task %d: a stream has more than one destination", t.Rank)
			}
		}
	}
	return nil
}

// stepNum is the step id as a number, the batch step as Slurm's 4294967294.
func (s *StepSpec) stepNum() uint64 {
	if s.IsBatch() {
		return batchStepNum
	}
	n, _ := strconv.ParseUint(s.StepID, 10, 32)
	return n
}

// controlSocket is the recorded control socket path.
func (s *StepSpec) controlSocket() string {
	if s.ControlSocket != "" {
		return s.ControlSocket
	}
	return fmt.Sprintf("%s/%s_%d.%d", s.Spool, s.NodeName, s.JobID, s.stepNum())
}

// logPrefix is how slurmstepd names itself in the lines it writes to a task's stderr.
func (s *StepSpec) logPrefix() string {
	if s.NodeName == "" {
		return "slurmstepd"
	}
	return "slurmstepd-" + s.NodeName
}

// taskRlimits is Rlimits as each task's child sets them.
func (s *StepSpec) taskRlimits() []taskexec.Rlimit {
	if len(s.Rlimits) == 0 {
		return nil
	}
	out := make([]taskexec.Rlimit, len(s.Rlimits))
	for i, r := range s.Rlimits {
		out[i] = taskexec.Rlimit{Resource: r.Resource, Cur: r.Value, Clamp: !r.User}
		if r.User {
			v := strconv.FormatUint(r.Value, 10)
			if r.Unlimited() {
				v = "'unlimited'"
			}
			out[i].FailMsg = s.logPrefix() + ": error: Can't propagate RLIMIT_" + r.Name + " of " + v + " from submit host: "
		}
	}
	return out
}
