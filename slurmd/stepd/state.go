package stepd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// State is what the supervisor records in <spool>/job%05u/step_<id>.state for a slurmd
// that restarts while the step runs, or that was down when it ended.
type State struct {
	JobID         uint32      `json:"job_id"`
	StepID        string      `json:"step_id"`
	NodeName      string      `json:"node_name"`
	UID           uint32      `json:"uid"`
	Pid           int         `json:"pid"`       // the supervisor
	PidStart      uint64      `json:"pid_start"` // its start time in clock ticks since boot (/proc/<pid>/stat field 22)
	ControlSocket string      `json:"control_socket"`
	Tasks         []TaskState `json:"tasks"`
	Status        string      `json:"status"` // StateRunning, then how the step ended
	StartTime     int64       `json:"start_time"`
	EndTime       int64       `json:"end_time,omitempty"`
	ExitCode      string      `json:"exit_code,omitempty"` // the step's rc:sig once ended
	TaskExits     []TaskExit  `json:"task_exits,omitempty"`
}

// TaskState identifies one task process.
type TaskState struct {
	Rank     int    `json:"rank"`
	LocalID  int    `json:"local_id"`
	Pid      int    `json:"pid"`
	PidStart uint64 `json:"pid_start"`
}

// Ended reports whether the state records the step's end.
func (st *State) Ended() bool { return st.Status != StateRunning }

// StatePath is the state file of step stepID of job jobID under spool.
func StatePath(spool string, jobID uint32, stepID string) string {
	return filepath.Join(JobDir(spool, jobID), "step_"+stepID+".state")
}

// selfStart is this process's start time (procStart), read once: every share of a wide
// step records it.
var selfStart = sync.OnceValue(func() uint64 { return procStart(os.Getpid()) })

// writeState writes the state file atomically (a reader never sees half of it).
func (s *Step) writeState() error {
	self := os.Getpid()
	st := State{
		JobID: s.spec.JobID, StepID: s.spec.StepID, NodeName: s.spec.NodeName, UID: s.spec.UID,
		Pid: self, PidStart: selfStart(), ControlSocket: s.spec.controlSocket(),
		StartTime: s.startTime.Unix(),
	}
	for _, t := range s.tasks {
		st.Tasks = append(st.Tasks, TaskState{Rank: t.Rank, LocalID: t.LocalID, Pid: t.pid, PidStart: t.start})
	}
	s.mu.Lock()
	st.Status = s.state
	if s.state != StateRunning {
		st.EndTime = s.endTime.Unix()
		st.ExitCode = s.exit.String()
		st.TaskExits = append([]TaskExit(nil), s.exits...)
	}
	s.mu.Unlock()
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("stepd: encoding state: %v", err)
	}
	tmp := s.statePath + ".new"
	if err := os.WriteFile(tmp, append(b, '\n'), 0600); err != nil {
		return fmt.Errorf("stepd: writing state file: %v", err)
	}
	if err := os.Rename(tmp, s.statePath); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("stepd: writing state file: %v", err)
	}
	return nil
}

// ReadState reads a step state file.
func ReadState(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("stepd: reading step state: %v", err)
	}
	st := new(State)
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("stepd: step state %s: %v", path, err)
	}
	if st.JobID == 0 || st.StepID == "" || st.Pid <= 0 {
		return nil, fmt.Errorf("stepd: step state %s: missing job id, step id or pid", path)
	}
	return st, nil
}

// ListSteps reads every step state file under spool, for a restarting slurmd. Files that
// cannot be read are reported in the error; the others are still returned, ordered by job
// and step.
func ListSteps(spool string) ([]*State, error) {
	paths, err := filepath.Glob(filepath.Join(spool, "job*", "step_*.state"))
	if err != nil {
		return nil, fmt.Errorf("stepd: listing steps in %s: %v", spool, err)
	}
	var out []*State
	var errs []error
	for _, p := range paths {
		st, err := ReadState(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].JobID != out[j].JobID {
			return out[i].JobID < out[j].JobID
		}
		return stepOrder(out[i].StepID) < stepOrder(out[j].StepID)
	})
	return out, errors.Join(errs...)
}

func stepOrder(id string) string {
	if id == BatchStep {
		return "" // the batch step first
	}
	return fmt.Sprintf("%010s", id)
}

// Alive reports whether the step's supervisor still runs: its pid exists, is not a zombie,
// and started when the state says (a recycled pid started later).
func Alive(st *State) bool {
	if st == nil || st.Pid <= 0 {
		return false
	}
	p, err := readProc(st.Pid)
	if err != nil || p.state == 'Z' || p.state == 'X' {
		return false
	}
	return p.start == st.PidStart
}

// RemoveState deletes a step's state file once slurmd has reported its end, and the job
// directory when nothing is left in it.
func RemoveState(path string) error {
	if !strings.HasSuffix(path, ".state") {
		return fmt.Errorf("stepd: %s is not a step state file", path)
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("stepd: removing step state: %v", err)
	}
	os.Remove(filepath.Dir(path)) // fails, as intended, while other steps' files remain
	return nil
}
