// Package stepdlaunch is the contract between slurmd and the slurmstepd process it starts for
// a batch job: the launch file slurmd writes (the controller's launch message plus what the
// stepd needs from slurmd's configuration, so the stepd never parses slurm.conf), the
// readiness line the stepd writes back on an inherited pipe, and the meaning of the signals
// slurmd sends the stepd.
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
)

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
}

// Path is the launch file of job jobID under spool.
func Path(spool string, jobID uint32) string {
	return filepath.Join(spool, fmt.Sprintf("job%05d", jobID), FileName)
}

// Write writes b to path, mode 0600, atomically.
func Write(path string, b *Batch) error {
	data, err := wire.Marshal(b)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0750); err != nil {
		return fmt.Errorf("cannot create job directory: %v", err)
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0600); err != nil {
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

// Read reads a launch file.
func Read(path string) (*Batch, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading launch file: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLaunchFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading launch file: %v", err)
	}
	if len(data) > maxLaunchFile {
		return nil, fmt.Errorf("launch file %s is larger than %d bytes", path, maxLaunchFile)
	}
	b := new(Batch)
	if err := wire.Unmarshal(data, b); err != nil {
		return nil, fmt.Errorf("launch file %s: %v", path, err)
	}
	if b.Msg.JobID == 0 || b.NodeName == "" || b.Spool == "" {
		return nil, fmt.Errorf("launch file %s: missing job id, node name or spool directory", path)
	}
	return b, nil
}

// ReadReady reads the stepd's answer from the readiness pipe: nil once the script runs, the
// stepd's error text otherwise (also when the stepd died without a word).
func ReadReady(r io.Reader) error {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case line == Ready:
		return nil
	case line != "":
		return errors.New(line)
	case err != nil && err != io.EOF:
		return fmt.Errorf("slurmstepd: reading its status: %v", err)
	}
	return errors.New("slurmstepd exited before starting the batch script")
}
