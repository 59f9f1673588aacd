package states

import "strings"

// JobState is a job's state as Slurm keeps it: a base state in the low byte (JobPending ...
// JobOOM) ORed with flag bits (JobCompleting, JobRequeue, ...).
type JobState uint32

// Job base states, in Slurm's numbering (enum job_states).
const (
	JobPending JobState = iota
	JobRunning
	JobSuspended
	JobComplete
	JobCancelled
	JobFailed
	JobTimeout
	JobNodeFail
	JobPreempted
	JobBootFail
	JobDeadline
	JobOOM
	jobEnd // number of base states
)

// JobStateBase masks the base state; JobStateFlags masks the flag bits.
const (
	JobStateBase  JobState = 0x000000ff
	JobStateFlags JobState = 0xffffff00
)

// Job state flags, with Slurm's bit positions.
const (
	JobLaunchFailed JobState = 1 << 8
	JobUpdateDB     JobState = 1 << 9
	JobRequeue      JobState = 1 << 10
	JobRequeueHold  JobState = 1 << 11
	JobSpecialExit  JobState = 1 << 12
	JobResizing     JobState = 1 << 13
	JobConfiguring  JobState = 1 << 14
	JobCompleting   JobState = 1 << 15
	JobStopped      JobState = 1 << 16
	JobReconfigFail JobState = 1 << 17
	JobPowerUpNode  JobState = 1 << 18
	JobRevoked      JobState = 1 << 19
	JobRequeueFed   JobState = 1 << 20
	JobResvDelHold  JobState = 1 << 21
	JobSignaling    JobState = 1 << 22
	JobStageOut     JobState = 1 << 23
)

type jobName struct {
	state         JobState
	long, compact string
}

// jobBaseNames is indexed by base state.
var jobBaseNames = [jobEnd]jobName{
	{JobPending, "PENDING", "PD"},
	{JobRunning, "RUNNING", "R"},
	{JobSuspended, "SUSPENDED", "S"},
	{JobComplete, "COMPLETED", "CD"},
	{JobCancelled, "CANCELLED", "CA"},
	{JobFailed, "FAILED", "F"},
	{JobTimeout, "TIMEOUT", "TO"},
	{JobNodeFail, "NODE_FAIL", "NF"},
	{JobPreempted, "PREEMPTED", "PR"},
	{JobBootFail, "BOOT_FAIL", "BF"},
	{JobDeadline, "DEADLINE", "DL"},
	{JobOOM, "OUT_OF_MEMORY", "OOM"},
}

// jobFlagDisplay lists the flags that replace the base name in squeue's ST/STATE columns, in
// the order Slurm tests them: the first one set wins.
var jobFlagDisplay = []jobName{
	{JobCompleting, "COMPLETING", "CG"},
	{JobStageOut, "STAGE_OUT", "SO"},
	{JobConfiguring, "CONFIGURING", "CF"},
	{JobResizing, "RESIZING", "RS"},
	{JobRequeue, "REQUEUED", "RQ"},
	{JobRequeueFed, "REQUEUE_FED", "RF"},
	{JobRequeueHold, "REQUEUE_HOLD", "RH"},
	{JobSpecialExit, "SPECIAL_EXIT", "SE"},
	{JobStopped, "STOPPED", "ST"},
	{JobRevoked, "REVOKED", "RV"},
	{JobResvDelHold, "RESV_DEL_HOLD", "RD"},
	{JobSignaling, "SIGNALING", "SI"},
}

// jobFlagComplete lists every flag in the order JobState.Complete appends them.
var jobFlagComplete = []jobName{
	{JobLaunchFailed, "LAUNCH_FAILED", ""},
	{JobUpdateDB, "UPDATE_DB", ""},
	{JobCompleting, "COMPLETING", ""},
	{JobConfiguring, "CONFIGURING", ""},
	{JobPowerUpNode, "POWER_UP_NODE", ""},
	{JobReconfigFail, "RECONFIG_FAIL", ""},
	{JobResizing, "RESIZING", ""},
	{JobRequeue, "REQUEUED", ""},
	{JobRequeueFed, "REQUEUE_FED", ""},
	{JobRequeueHold, "REQUEUE_HOLD", ""},
	{JobSpecialExit, "SPECIAL_EXIT", ""},
	{JobStopped, "STOPPED", ""},
	{JobRevoked, "REVOKED", ""},
	{JobResvDelHold, "RESV_DEL_HOLD", ""},
	{JobSignaling, "SIGNALING", ""},
	{JobStageOut, "STAGE_OUT", ""},
}

// jobFlagParse lists the flag states a user may name in `squeue -t`, in the order Slurm
// lists them in its "Valid job states" message.
var jobFlagParse = []JobState{
	JobCompleting, JobConfiguring, JobResizing, JobResvDelHold, JobRequeue, JobRequeueFed,
	JobRequeueHold, JobRevoked, JobSignaling, JobSpecialExit, JobStageOut, JobStopped,
}

// Base returns the base state without flags.
func (s JobState) Base() JobState { return s & JobStateBase }

// Has reports whether every bit of flag is set.
func (s JobState) Has(flag JobState) bool { return s&flag == flag }

func (s JobState) displayName() (jobName, bool) {
	for _, f := range jobFlagDisplay {
		if s&f.state != 0 {
			return f, true
		}
	}
	if b := s.Base(); b < jobEnd {
		return jobBaseNames[b], true
	}
	return jobName{}, false
}

// String returns the long name squeue's STATE column prints (job_state_string): the first
// set display flag (COMPLETING, STAGE_OUT, ...) replaces the base name; "?" if unknown.
func (s JobState) String() string {
	if n, ok := s.displayName(); ok {
		return n.long
	}
	return "?"
}

// Compact returns the short name squeue's ST column prints (PD, R, CG, ...); "?" if unknown.
func (s JobState) Compact() string {
	if n, ok := s.displayName(); ok {
		return n.compact
	}
	return "?"
}

// Complete returns the base name followed by every set flag, comma separated, e.g.
// "RUNNING,COMPLETING" (job_state_string_complete; used by JSON output).
func (s JobState) Complete() string {
	var b strings.Builder
	if base := s.Base(); base < jobEnd {
		b.WriteString(jobBaseNames[base].long)
	} else {
		b.WriteString("?")
	}
	for _, f := range jobFlagComplete {
		if s&f.state != 0 {
			b.WriteString(",")
			b.WriteString(f.long)
		}
	}
	return b.String()
}

// IsPending reports whether the base state is PENDING (Slurm's IS_JOB_PENDING).
func (s JobState) IsPending() bool { return s.Base() == JobPending }

// IsRunning reports whether the base state is RUNNING.
func (s JobState) IsRunning() bool { return s.Base() == JobRunning }

// IsSuspended reports whether the base state is SUSPENDED.
func (s JobState) IsSuspended() bool { return s.Base() == JobSuspended }

// IsCompleting reports whether the COMPLETING flag is set.
func (s JobState) IsCompleting() bool { return s&JobCompleting != 0 }

// IsFinished reports whether the base state is past RUNNING/SUSPENDED (a terminal state).
func (s JobState) IsFinished() bool { return s.Base() > JobSuspended }
