// Package stepdlaunch is the contract between slurmd and the slurmstepd process it starts for
// a batch job (Batch) or for one node's share of an srun step (Step, step.go): the launch
// file slurmd writes (the launch message plus what the stepd needs from slurmd's
// configuration, so the stepd never parses slurm.conf), the readiness line the stepd writes
// back on an inherited pipe, and the meaning of the signals slurmd sends the stepd.
//
// It may import internal/wire and the standard library only: both binaries link it.
package stepdlaunch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Signals slurmd sends a batch job's slurmstepd (Slurm's slurmd talks to its stepd over a
// Unix socket; Orbit's stepd has one step and needs only two requests, so signals suffice and
// survive a slurmd restart without any connection state).
const (
	// SigCancel asks the stepd to kill its step (SIGTERM, KillWait, SIGKILL) and report the
	// job CANCELLED (MsgTerminateJob, scancel).
	SigCancel = syscall.SIGTERM
	// SigTimeout does the same but reports the job TIMEOUT (MsgTerminateJob with TimedOut).
	SigTimeout = syscall.SIGUSR2
	// SigAbort asks a step's stepd to kill its tasks with SIGKILL at once, cancelled (srun
	// forcing the end of its step).
	SigAbort = syscall.SIGUSR1
	// SigRequeue is SigCancel for a job the controller requeued: the stepd says so in its
	// CANCELLED line ("DUE TO JOB REQUEUE"). A real-time signal (SIGRTMIN+6): the standard
	// ones are taken, and glibc reserves the first two real-time ones.
	SigRequeue = syscall.Signal(40)
	// SigPreempt is SigCancel for a job preempted (cancelled or requeued): "DUE TO
	// PREEMPTION" (SIGRTMIN+7).
	SigPreempt = syscall.Signal(41)
	// SigTimeLimit tells a step's stepd that its time limit changed (scontrol update
	// StepId=): the new limit is in the file TimeLimitPath names (SIGRTMIN+8).
	SigTimeLimit = syscall.Signal(42)
)

// TimeLimitPath is the file slurmd leaves a step's new time limit in (minutes, decimal) for
// its stepd, beside the step's state file.
func TimeLimitPath(statePath string) string { return statePath + ".limit" }

// FileName is the launch file's name in the job's spool directory (<spool>/job%05u).
const FileName = "launch"

// ReadyFD is the file descriptor on which the stepd inherits the write end of the readiness
// pipe (os/exec's ExtraFiles[0]).
const ReadyFD = 3

// Ready is the line the stepd writes on the readiness pipe once the script runs; anything
// else is an error text.
const Ready = "ok"

// Batch is the content of the launch file.
type Batch struct {
	Msg      wire.LaunchBatchJob `codec:"msg"`
	NodeName string              `codec:"node_name"`
	Spool    string              `codec:"spool"`     // the node's SlurmdSpoolDir, %n/%h expanded
	ConfPath string              `codec:"conf_path"` // SLURM_CONF in the job's environment
	KeyPath  string              `codec:"key_path"`  // slurm.key, to sign MsgBatchJobComplete
	// CtldAddrs are the controllers' host:port, primary first.
	CtldAddrs []string `codec:"ctld_addrs"`
	// CtldAddr and CtldPort are the first controller's address and port as
	// SLURM_WORKING_CLUSTER shows them.
	CtldAddr       string `codec:"ctld_addr"`
	CtldPort       uint32 `codec:"ctld_port"`
	ClusterName    string `codec:"cluster_name"`
	MessageTimeout int    `codec:"message_timeout"` // seconds
	KillWait       int    `codec:"kill_wait"`       // seconds, slurm.conf's when the launch has none
	TmpFS          string `codec:"tmp_fs"`          // TmpFS: TMPDIR when the job has none
	JobFileAppend  bool   `codec:"job_file_append"` // slurm.conf's, for OpenMode unset
	LogFile        string `codec:"log_file"`        // where the stepd logs ("" = stderr)
	Debug          bool   `codec:"debug"`
	// AuthType and AuthInfo are slurm.conf's: how the stepd signs MsgBatchJobComplete
	// (slurm.key at KeyPath for auth/slurm, munged for auth/munge).
	AuthType string `codec:"auth_type"`
	AuthInfo string `codec:"auth_info"`
	Memory   Memory `codec:"memory"`
	// PropagateRlimits names the rlimits the node's slurm.conf propagates
	// (PropagateResourceLimits[Except]); the stepd applies a SLURM_RLIMIT_* variable of the
	// job when its limit is named here or the user asked (--propagate).
	PropagateRlimits []string `codec:"propagate_rlimits"`
	// TaskProlog and TaskEpilog are the node's slurm.conf's, run around the batch script.
	TaskProlog string `codec:"task_prolog"`
	TaskEpilog string `codec:"task_epilog"`
}

// Memory is task/cgroup's memory confinement of a step on this node, decided by slurmd from
// slurm.conf (TaskPlugin has task/cgroup) and cgroup.conf (ConstrainRAMSpace=yes).
type Memory struct {
	Constrain bool   `codec:"constrain"`
	Mount     string `codec:"mount"` // CgroupMountpoint
	// LimitMiB is the job's memory on this node (--mem, --mem-per-cpu times the node's CPUs,
	// or DefMemPerNode/DefMemPerCPU); 0 = no limit, only the oom-kill accounting.
	LimitMiB uint64 `codec:"limit_mib"`
	// AllowedRAMSpace is cgroup.conf's percentage of LimitMiB (0 = 100).
	AllowedRAMSpace float64 `codec:"allowed_ram_space"`
}

// Path is the launch file of job jobID under spool.
func Path(spool string, jobID uint32) string {
	return filepath.Join(spool, fmt.Sprintf("job%05d", jobID), FileName)
}

// DetailsPath is where slurmd leaves the controller's reason for ending job jobID (the
// TerminateJob's Details) for its slurmstepd, before it signals it.
func DetailsPath(spool string, jobID uint32) string {
	return filepath.Join(spool, fmt.Sprintf("job%05d", jobID), "terminate.details")
}

// Write writes b to path, mode 0600, atomically.
func Write(path string, b *Batch) error { return writeFile(path, b) }

// writeFile writes a launch file, mode 0600, atomically.
func writeFile(path string, v any) error {
	data, err := wire.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0750); err != nil {
		return fmt.Errorf("cannot create job directory: %v", err)
	}
	tmp := path + ".new"
	err = os.WriteFile(tmp, data, 0600)
	if errors.Is(err, os.ErrNotExist) {
		// The job's previous incarnation's slurmstepd removed the (then empty) directory
		// just now: make it again.
		if err = os.MkdirAll(filepath.Dir(path), 0750); err == nil {
			err = os.WriteFile(tmp, data, 0600)
		}
	}
	if err != nil {
		return fmt.Errorf("cannot write launch file: %v", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write launch file: %v", err)
	}
	return nil
}

// maxLaunchFile bounds what Read accepts (a script may be large, but not unbounded).
const maxLaunchFile = 256 << 20

// Read reads a batch launch file.
func Read(path string) (*Batch, error) {
	b := new(Batch)
	if err := readFile(path, b); err != nil {
		return nil, err
	}
	if b.Msg.JobID == 0 || b.NodeName == "" || b.Spool == "" {
		return nil, fmt.Errorf("launch file %s: missing job id, node name or spool directory", path)
	}
	return b, nil
}

// readFile decodes the launch file at path into v.
func readFile(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading launch file: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLaunchFile+1))
	if err != nil {
		return fmt.Errorf("reading launch file: %v", err)
	}
	if len(data) > maxLaunchFile {
		return fmt.Errorf("launch file %s is larger than %d bytes", path, maxLaunchFile)
	}
	if err := wire.Unmarshal(data, v); err != nil {
		return fmt.Errorf("launch file %s: %v", path, err)
	}
	return nil
}

// ReadReady reads the stepd's answer from the readiness pipe: nil once the script runs, the
// stepd's error text otherwise (also when the stepd died without a word).
func ReadReady(r io.Reader) error {
	line, err := readLine(r)
	if line == "" && err == nil {
		return errors.New("slurmstepd exited before starting the batch script")
	}
	return err
}

// readLine reads the readiness line: ("ok", nil) or the stepd's word; ("", nil) when the
// stepd said nothing.
func readLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case line == Ready:
		return line, nil
	case line != "":
		return line, errors.New(line)
	case err != nil && err != io.EOF:
		return "", fmt.Errorf("slurmstepd: reading its status: %w", err)
	}
	return "", nil
}
