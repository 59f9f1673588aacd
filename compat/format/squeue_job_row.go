package format

import (
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
)

// JobRow holds what squeue can print about one job (or one array task, or the record of an
// array's pending tasks). Empty strings are Slurm's NULL and print as "(null)" where Slurm
// does; numbers use NoVal/Infinite for unset/unlimited as Slurm does.
type JobRow struct {
	JobID        uint32
	ArrayJobID   uint32 // 0 when not an array job
	ArrayTaskID  uint32 // NoVal when not an array task
	ArrayTaskStr string // pending tasks of an array record, e.g. "1-5%2"; "" otherwise
	// ArrayTaskStrUncut reflects SLURM_BITSTR_LEN being set: squeue then never cuts
	// an "id_[tasks]" job id.
	ArrayTaskStrUncut bool
	HetJobID          uint32 // 0 when not a heterogeneous job
	HetJobOffset      uint32
	HetJobIDSet       string

	Name, UserName, GroupName string
	UserID, GroupID           uint32

	Account, Partition, QOS, Reservation, WCKey, Licenses            string
	LicensesEmpty                                                    bool // set to none by an update: shown empty, not (null)
	Comment, AdminComment, SystemComment                             string
	Features, ClusterFeatures, Prefer, Dependency                    string
	Command, WorkDir, StdIn, StdOut, StdErr                          string
	Cluster, Container, Network, MCSLabel                            string
	BurstBuffer, BurstBufferState, Profile                           string
	TRESAlloc, TRESReq, TRESPerNode, TRESPerJob                      string
	TRESPerSocket, TRESPerTask, TRESBind, TRESFreq                   string
	CPUsPerTRES, MemPerTRES                                          string
	FedOrigin, FedOriginRaw, FedSiblingsActive, FedSiblingsActiveRaw string
	FedSiblingsViable, FedSiblingsViableRaw                          string
	OverSubscribe                                                    string // OK, NO, YES, USER, MCS
	SelectJobInfo                                                    string // empty with select/cons_tres

	State     states.JobState
	Reason    states.Reason
	StateDesc string // overrides Reason when set

	NodeList, ReqNodes, ExcNodes, SchedNodes, BatchHost, AllocNode string
	BatchFlag                                                      bool

	NumNodes, NumCPUs, NumTasks, MinCPUs, MaxCPUs, MaxNodes uint32
	MinMemoryMB                                             uint64 // per node or per CPU
	MinTmpDiskMB                                            uint32
	CPUsPerTask, Sockets, Cores, Threads                    uint16 // NoVal16 = not requested
	NTasksPerNode, NTasksPerSocket, NTasksPerCore           uint16
	NTasksPerBoard, BoardsPerNode, SocketsPerBoard          uint16
	CoreSpec                                                uint16 // NoVal16 = none; high bit = threads

	TimeLimit, TimeMin                                            uint32 // minutes; Infinite, NoVal
	Submit, Start, End, Eligible, Accrue, Deadline, LastSchedEval time.Time
	PreemptTime, Suspend                                          time.Time
	PreSuspendSecs                                                int64
	ResizeTime                                                    int64

	// PartitionTier is, for squeue --priority's row of one partition of a job, that
	// partition's PriorityTier (0 otherwise): the priority sort compares it first.
	PartitionTier uint32

	Priority               uint32
	Nice                   int32
	Contiguous, Requeue    uint16
	Reboot                 uint16
	RestartCnt             uint32
	ExitCode, DerivedEC    int32
	DelayBoot              uint32 // seconds
	AllocSID, AssocID      uint32
	ReqSwitch, Wait4Switch uint32

	// Now is the clock squeue reads for TIME, TIME_LEFT, END_TIME and PENDING_TIME.
	Now time.Time
	// NoConvert is squeue --noconvert: memory and counts are not scaled to K/M/G.
	NoConvert bool
}

// TimeUsed returns the job's run time in seconds as squeue computes it (job_time_used).
func (j *JobRow) TimeUsed() int64 {
	if j.Start.IsZero() || j.State.IsPending() {
		return 0
	}
	if j.State.IsSuspended() {
		return j.PreSuspendSecs
	}
	end := j.End
	if j.State.IsRunning() || end.IsZero() {
		end = j.Now
	}
	if !j.Suspend.IsZero() {
		return int64(end.Sub(j.Suspend)/time.Second) + j.PreSuspendSecs
	}
	return int64(end.Sub(j.Start) / time.Second)
}

// ReasonText is the reason string squeue shows: StateDesc when set, else the reason name.
func (j *JobRow) ReasonText() string {
	if j.StateDesc != "" {
		return j.StateDesc
	}
	return j.Reason.String()
}

// showsReason reports whether %R prints "(reason)" rather than the node list.
func (j *JobRow) showsReason() bool {
	if j.State.IsCompleting() {
		return false
	}
	switch j.State.Base() {
	case states.JobPending, states.JobTimeout, states.JobOOM, states.JobDeadline, states.JobFailed:
		return true
	}
	return j.State&states.JobStageOut != 0
}
