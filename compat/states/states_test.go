package states

import (
	"strings"
	"testing"
)

func TestJobState_Names(t *testing.T) {
	tests := []struct {
		state                   JobState
		long, compact, complete string
	}{
		{JobPending, "PENDING", "PD", "PENDING"},
		{JobRunning, "RUNNING", "R", "RUNNING"},
		{JobOOM, "OUT_OF_MEMORY", "OOM", "OUT_OF_MEMORY"},
		{JobRunning | JobCompleting, "COMPLETING", "CG", "RUNNING,COMPLETING"},
		{JobComplete | JobCompleting | JobStageOut, "COMPLETING", "CG", "COMPLETED,COMPLETING,STAGE_OUT"},
		{JobPending | JobRequeueHold, "REQUEUE_HOLD", "RH", "PENDING,REQUEUE_HOLD"},
		{JobRunning | JobConfiguring, "CONFIGURING", "CF", "RUNNING,CONFIGURING"},
		{JobPending | JobLaunchFailed, "PENDING", "PD", "PENDING,LAUNCH_FAILED"},
		{JobState(0x42), "?", "?", "?"},
	}
	for _, tt := range tests {
		if got := tt.state.String(); got != tt.long {
			t.Errorf("%#x String() = %q, want %q", uint32(tt.state), got, tt.long)
		}
		if got := tt.state.Compact(); got != tt.compact {
			t.Errorf("%#x Compact() = %q, want %q", uint32(tt.state), got, tt.compact)
		}
		if got := tt.state.Complete(); got != tt.complete {
			t.Errorf("%#x Complete() = %q, want %q", uint32(tt.state), got, tt.complete)
		}
	}
}

func TestParseJobStateList(t *testing.T) {
	got, all, err := ParseJobStateList("pd,R,cOmPlEtInG,,CA")
	if err != nil || all {
		t.Fatalf("err=%v all=%v", err, all)
	}
	want := []JobState{JobPending, JobRunning, JobCompleting, JobCancelled}
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d: got %#x want %#x", i, got[i], want[i])
		}
	}
	if _, all, _ := ParseJobStateList("ALL"); !all {
		t.Error("ALL not recognised")
	}
	_, _, err = ParseJobStateList("pd,foo")
	var e *JobStateListError
	if err == nil {
		t.Fatal("no error for foo")
	}
	e = err.(*JobStateListError)
	// The reference's exact text (squeue -t foo, Slurm 22.05.8).
	want2 := []string{"Invalid job state specified: foo",
		"Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n"}
	if strings.Join(e.Lines(), "|") != strings.Join(want2, "|") {
		t.Errorf("Lines() = %q", e.Lines())
	}
}

func TestMatchesJobState(t *testing.T) {
	if !MatchesJobState(JobRunning|JobCompleting, JobCompleting) {
		t.Error("CG should match a completing job")
	}
	if MatchesJobState(JobRunning|JobConfiguring, JobRunning) {
		t.Error("R should not match a configuring job (Slurm compares the whole state)")
	}
	if !MatchesJobState(JobRunning|JobUpdateDB, JobRunning) {
		t.Error("UPDATE_DB is ignored")
	}
}

func TestNodeState_Names(t *testing.T) {
	tests := []struct {
		state                   NodeState
		long, compact, complete string
	}{
		{NodeIdle, "IDLE", "IDLE", "IDLE"},
		{NodeAllocated, "ALLOCATED", "ALLOC", "ALLOCATED"},
		{NodeMixed, "MIXED", "MIX", "MIXED"},
		{NodeIdle | NodeDrain, "DRAINED", "DRAIN", "IDLE+DRAIN"},
		{NodeAllocated | NodeDrain, "DRAINING", "DRNG", "ALLOCATED+DRAIN"},
		{NodeIdle | NodeDrain | NodeCompleting, "DRAINING", "DRNG", "IDLE+COMPLETING+DRAIN"},
		{NodeDown | NodeDrain | NodeNoRespond, "DRAINED*", "DRAIN*", "DOWN+DRAIN+NOT_RESPONDING"},
		{NodeIdle | NodeNoRespond, "IDLE*", "IDLE*", "IDLE+NOT_RESPONDING"},
		{NodeDown | NodeNoRespond, "DOWN*", "DOWN*", "DOWN+NOT_RESPONDING"},
		{NodeAllocated | NodeCompleting, "ALLOCATED+", "ALLOC+", "ALLOCATED+COMPLETING"},
		{NodeIdle | NodeCompleting, "COMPLETING", "COMP", "IDLE+COMPLETING"},
		{NodeMixed | NodePlanned, "MIXED-", "MIX-", "MIXED+PLANNED"},
		{NodeIdle | NodePlanned, "PLANNED", "PLND", "IDLE+PLANNED"},
		{NodeIdle | NodeReserved, "RESERVED", "RESV", "IDLE+RESERVED"},
		{NodeIdle | NodeMaint, "MAINT", "MAINT", "IDLE+MAINTENANCE"},
		{NodeAllocated | NodeMaint, "ALLOCATED$", "ALLOC$", "ALLOCATED+MAINTENANCE"},
		{NodeIdle | NodePoweredDown, "IDLE~", "IDLE~", "IDLE+POWERED_DOWN"},
		{NodeIdle | NodePoweringUp, "IDLE#", "IDLE#", "IDLE+POWERING_UP"},
		{NodeIdle | NodePoweringDown, "IDLE%", "IDLE%", "IDLE+POWERING_DOWN"},
		{NodeIdle | NodePowerDown, "IDLE!", "IDLE!", "IDLE+POWER_DOWN"},
		{NodeIdle | NodeRebootRequested, "REBOOT", "BOOT", "IDLE+REBOOT_REQUESTED"},
		{NodeMixed | NodeRebootRequested, "MIXED@", "MIX@", "MIXED+REBOOT_REQUESTED"},
		{NodeDown | NodeRebootIssued, "REBOOT^", "BOOT^", "DOWN+REBOOT_ISSUED"},
		{NodeAllocated | NodeFail, "FAILING", "FAILG", "ALLOCATED+FAIL"},
		{NodeIdle | NodeFail | NodeNoRespond, "FAIL*", "FAIL*", "IDLE+FAIL+NOT_RESPONDING"},
		{NodeFuture, "FUTURE", "FUTR", "FUTURE"},
		{NodeUnknown, "UNKNOWN", "UNK", "UNKNOWN"},
		{NodeUnknown | NodeNoRespond, "UNKNOWN*", "UNK*", "UNKNOWN+NOT_RESPONDING"},
		{NodeIdle | NodeInvalidReg, "INVAL", "INVAL", "IDLE+INVALID_REG"},
		{NodeCloud, "CLOUD", "UNK", "UNKNOWN+CLOUD"},
		{NodeError, "?", "?", "ERROR"},
		{NodeIdle | 1<<30, "IDLE", "IDLE", "IDLE+?"},
	}
	for _, tt := range tests {
		if got := tt.state.String(); got != tt.long {
			t.Errorf("%#x String() = %q, want %q", uint32(tt.state), got, tt.long)
		}
		if got := tt.state.Compact(); got != tt.compact {
			t.Errorf("%#x Compact() = %q, want %q", uint32(tt.state), got, tt.compact)
		}
		if got := tt.state.Complete(); got != tt.complete {
			t.Errorf("%#x Complete() = %q, want %q", uint32(tt.state), got, tt.complete)
		}
	}
	if got := (NodeAllocated | NodeDrain).SinfoCompact(); got != "drng" {
		t.Errorf("SinfoCompact = %q", got)
	}
	if got := (NodeAllocated | NodeDrain).ScontrolState(true); got != "MIXED+DRAIN" {
		t.Errorf("ScontrolState = %q", got)
	}
}

func TestParseNodeStateList(t *testing.T) {
	tests := []struct {
		in   string
		want []NodeState
		and  bool
	}{
		{"idle", []NodeState{NodeIdle}, false},
		{"I", []NodeState{NodeIdle}, false},
		{"alloc,MIX", []NodeState{NodeAllocated, NodeMixed}, false},
		{"dra", []NodeState{NodeDrain}, false},
		{"drained&idle", []NodeState{NodeDrain | NodeIdle, NodeIdle}, true},
		{"drng,resv,npc,plnd", []NodeState{NodeDrain | NodeAllocated, NodeReserved, NodeNet, NodePlanned}, false},
		{"no_respond,comp,maint,fail,cloud", []NodeState{NodeNoRespond, NodeCompleting, NodeMaint, NodeFail, NodeCloud}, false},
		{"powered_down,POWERING_UP", []NodeState{NodePoweredDown, NodePoweringUp}, false},
		{"all", []NodeState{NodeUnknown, NodeDown, NodeIdle, NodeAllocated, NodeError, NodeMixed, NodeFuture, NodeDrain, NodeCompleting}, false},
	}
	for _, tt := range tests {
		f, err := ParseNodeStateList(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if f.And != tt.and || len(f.States) != len(tt.want) {
			t.Errorf("%q: got %+v", tt.in, f)
			continue
		}
		for i := range tt.want {
			if f.States[i] != tt.want[i] {
				t.Errorf("%q item %d: got %#x want %#x", tt.in, i, f.States[i], tt.want[i])
			}
		}
	}
	_, err := ParseNodeStateList("idle,foo")
	if err == nil {
		t.Fatal("no error for foo")
	}
	// The reference's exact text (sinfo -t foo, Slurm 22.05.8).
	want := `Bad state string: "foo"|valid states: unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint,reboot,reboot^,unknown`
	if got := strings.Join(err.(*NodeStateListError).Lines(), "|"); got != want {
		t.Errorf("Lines() = %q", got)
	}
}

func TestReason(t *testing.T) {
	tests := []struct {
		r    Reason
		name string
	}{
		{WaitNoReason, "None"},
		{WaitPriority, "Priority"},
		{WaitResources, "Resources"},
		{WaitHeld, "JobHeldAdmin"},
		{WaitHeldUser, "JobHeldUser"},
		{WaitTime, "BeginTime"},
		{WaitDepInvalid, "DependencyNeverSatisfied"},
		{WaitArrayTaskLimit, "JobArrayTaskLimit"},
		{FailDeadline, "DeadLine"},
		{FailOOM, "OutOfMemory"},
		{WaitResvDeleted, "ReservationDeleted"},
		{Reason(9999), "9999"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.name {
			t.Errorf("Reason(%d) = %q, want %q", tt.r, got, tt.name)
		}
		if tt.r < reasonEnd {
			if r, ok := ParseReason(strings.ToUpper(tt.name)); !ok || r.String() != tt.name {
				t.Errorf("ParseReason(%q) = %v, %v", tt.name, r, ok)
			}
		}
	}
	if WaitResvDeleted != 198 {
		t.Errorf("WaitResvDeleted = %d: the numbering drifted from Slurm's enum", WaitResvDeleted)
	}
}

// TestSchedulerDescReason: a scheduler may give the fixed texts and "ReqNodeNotAvail,
// UnavailableNodes:<nodes>" (with ReqNodeNotAvail); other texts are refused.
func TestSchedulerDescReason(t *testing.T) {
	for _, c := range []struct {
		desc string
		want Reason
		ok   bool
	}{
		{DescNodesReserved, WaitResources, true},
		{DescResvOtherJob, WaitNodeNotAvail, true},
		{UnavailableNodesDesc("n[1-2]"), WaitNodeNotAvail, true},
		{DescUnavailableNodes, 0, false},
		{DescUnavailableNodes + "n1 (x)", 0, false},
		{"anything", 0, false},
	} {
		if r, ok := SchedulerDescReason(c.desc); r != c.want || ok != c.ok {
			t.Errorf("SchedulerDescReason(%q) = %v, %v; want %v, %v", c.desc, r, ok, c.want, c.ok)
		}
	}
}
