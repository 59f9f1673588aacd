package ctld_test

import (
	"errors"
	"os/user"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// otherUser is an account of the system other than root and the test's own user, with its
// primary group: nobody/nogroup on Debian. The AllowGroups cases need a real one, since the
// controller looks the user's groups up.
func otherUser(t *testing.T) (uid uint32, group string) {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("the AllowGroups cases need the system's nobody account: %v", err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Fatalf("nobody's primary group %s: %v", u.Gid, err)
	}
	id, _ := strconv.ParseUint(u.Uid, 10, 32)
	return uint32(id), g.Name
}

func partAccessConf(group string) string {
	return "PartitionName=grp Nodes=n1 AllowGroups=root\n" +
		"PartitionName=grpo Nodes=n1 AllowGroups=nosuchgroup," + group + "\n" +
		"PartitionName=rootp Nodes=n1 RootOnly=YES\n" +
		"PartitionName=resv Nodes=n1 ReqResv=YES\n" +
		"PartitionName=nroot Nodes=n1 DisableRootJobs=YES\n" +
		"PartitionName=an Nodes=n1 AllocNodes=login[1-2]\n" +
		"PartitionName=small Nodes=n1 MaxNodes=1 MaxTime=10\n" +
		"PartitionName=mcpu Nodes=n1 MaxCPUsPerNode=2\n" +
		"PartitionName=notime Nodes=n1 DefaultTime=0\n"
}

// runAs is sbatch --uid=uid -p part ("" for the default partition).
func runAs(uid uint32, part string) func(d *wire.JobDesc) {
	return func(d *wire.JobDesc) { d.UserID, d.UserIDSet, d.Partition = uid, true, part }
}

func errnoOf(err error) int32 {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Errno
	}
	return 0
}

// TestPartAccess_Submit: who may submit to a partition and which requests its limits refuse,
// with EnforcePartLimits=NO (Slurm's default): access is always enforced; limits only make
// the job pend, with the reason Slurm gives.
func TestPartAccess_Submit(t *testing.T) {
	other, group := otherUser(t)
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Extra: partAccessConf(group)})
	f.startNodes("n1", "n2")
	type tc struct {
		name   string
		uid    uint32
		edit   func(d *wire.JobDesc)
		errno  int32         // refusal; 0 = accepted
		reason states.Reason // accepted: the reason it pends with (WaitNoReason = it runs)
	}
	part := func(p string) func(*wire.JobDesc) { return func(d *wire.JobDesc) { d.Partition = p } }
	cases := []tc{
		{"root not in AllowGroups still may", 0, part("grp"), 0, states.WaitNoReason},
		{"user outside AllowGroups", other, part("grp"), 2003, 0},
		{"user in one of AllowGroups", other, part("grpo"), 0, states.WaitNoReason},
		{"RootOnly for a user", other, part("rootp"), 2002, 0},
		{"RootOnly for root", 0, part("rootp"), 0, states.WaitNoReason},
		{"ReqResv without a reservation", 0, part("resv"), 2002, 0},
		{"ReqResv with one (that does not exist)", 0, func(d *wire.JobDesc) { d.Partition, d.Reservation = "resv", "r1" }, 2053, 0},
		{"DisableRootJobs for root", 0, part("nroot"), 2010, 0},
		{"DisableRootJobs for a user", other, part("nroot"), 0, states.WaitNoReason},
		{"AllocNodes without the submit host", 0, func(d *wire.JobDesc) { d.Partition, d.SubmitHost = "an", "elsewhere" }, 2002, 0},
		{"AllocNodes naming the submit host", 0, func(d *wire.JobDesc) { d.Partition, d.SubmitHost = "an", "login2" }, 0, states.WaitNoReason},
		{"time limit over MaxTime pends", 0, func(d *wire.JobDesc) { d.Partition, d.TimeLimit = "small", 20 }, 0, states.WaitPartTimeLimit},
		{"node count over MaxNodes pends", 0, func(d *wire.JobDesc) { d.Partition, d.MinNodes, d.MaxNodes = "small", 1, 3 }, 0, states.WaitPartNodeLimit},
		{"more nodes than the partition has pends", 0, func(d *wire.JobDesc) { d.Partition, d.MinNodes = "small", 2 }, 0, states.WaitPartNodeLimit},
		{"more CPUs than MaxCPUsPerNode allows pends", 0, func(d *wire.JobDesc) { d.Partition, d.NumTasks = "mcpu", 3 }, 0, states.WaitPartConfig},
		{"time-min over MaxTime", 0, func(d *wire.JobDesc) { d.Partition, d.TimeMin = "small", 20 }, 2124, 0},
		{"time-min over the time limit", 0, func(d *wire.JobDesc) { d.Partition, d.TimeLimit, d.TimeMin = "small", 5, 8 }, 2124, 0},
		{"DefaultTime=0 and no time limit", 0, part("notime"), 2051, 0},
		{"several partitions, one refusing access, under NO", other, part("grp,grpo"), 0, states.WaitNoReason},
		// --uid: partition access is the job's user's, RootOnly the submitter's at submission
		// only (Slurm's job_limits_check then checks the job's user, so the job pends).
		{"--uid by root for a user outside AllowGroups", 0, runAs(other, "grp"), 2003, 0},
		{"--uid by root for a user in AllowGroups", 0, runAs(other, "grpo"), 0, states.WaitNoReason},
		{"--uid by root into RootOnly pends", 0, runAs(other, "rootp"), 0, states.WaitPartConfig},
		{"--uid=root by root into DisableRootJobs", 0, runAs(0, "nroot"), 2010, 0},
		{"--uid by a user", other, runAs(0, ""), 2010, 0},
		{"--gid by a user", other, func(d *wire.JobDesc) { d.GroupID, d.GroupIDSet = 0, true }, 2113, 0},
	}
	for _, c := range cases {
		d := script("exit 0")
		c.edit(d)
		id, err := f.submit(c.uid, d)
		if got := errnoOf(err); got != c.errno || (c.errno == 0 && err != nil) {
			t.Errorf("%s: submit = %v (errno %d), want errno %d", c.name, err, got, c.errno)
			continue
		}
		if c.errno != 0 {
			continue
		}
		if c.reason == states.WaitNoReason {
			j := f.waitState(id, states.JobComplete)
			if want := strings.Split(d.Partition, ",")[len(strings.Split(d.Partition, ","))-1]; d.Partition != "" && j.Partition != want {
				t.Errorf("%s: ran in %s, want %s", c.name, j.Partition, want)
			}
		} else {
			f.waitReason(id, c.reason)
		}
	}
}

// TestPartAccess_Enforce: under EnforcePartLimits=ALL a limit refuses the submission; under
// ANY a job several partitions name is refused only when none of them takes it.
func TestPartAccess_Enforce(t *testing.T) {
	for _, mode := range []string{"ALL", "ANY", "yes"} {
		f := newFixture(t, ctld.TestConfig{Nodes: 2, Extra: "EnforcePartLimits=" + mode + "\n" + partAccessConf("root")})
		f.startNodes("n1", "n2")
		refused := func(edit func(d *wire.JobDesc)) int32 {
			d := script("exit 0")
			edit(d)
			_, err := f.submit(0, d)
			return errnoOf(err)
		}
		if got := refused(func(d *wire.JobDesc) { d.Partition, d.TimeLimit = "small", 20 }); got != 2051 {
			t.Errorf("%s: time limit over MaxTime: errno %d, want 2051", mode, got)
		}
		if got := refused(func(d *wire.JobDesc) { d.Partition, d.MinNodes = "small", 2 }); got != 2006 {
			t.Errorf("%s: more nodes than the partition: errno %d, want 2006", mode, got)
		}
		if got := refused(func(d *wire.JobDesc) { d.Partition, d.NumTasks = "mcpu", 3 }); got != 2005 {
			t.Errorf("%s: CPUs over MaxCPUsPerNode: errno %d, want 2005", mode, got)
		}
		want := int32(2051) // ALL: every partition must take it
		if mode != "ALL" {
			want = 0
		}
		if got := refused(func(d *wire.JobDesc) { d.Partition, d.TimeLimit = "small,debug", 20 }); got != want {
			t.Errorf("%s: -p small,debug -t 20: errno %d, want %d", mode, got, want)
		}
	}
}

// TestPartAccess_Update: moving a job to a partition its user may not use changes it and
// still answers ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE, as Slurm's update_job does; the
// job then pends with PartitionConfig. A move within the limits answers success.
func TestPartAccess_Update(t *testing.T) {
	other, group := otherUser(t)
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Extra: partAccessConf(group)})
	d := script("exit 0")
	d.Hold = true
	id, err := f.submit(other, d)
	if err != nil {
		t.Fatal(err)
	}
	update := func(uid uint32, partition string) int32 {
		r := &wire.UpdateJobRequest{JobID: id, ArrayTaskID: wire.NoVal, Action: wire.JobActionUpdate,
			TimeLimit: wire.NoVal, MinNodes: wire.NoVal, MaxNodes: wire.NoVal, Priority: wire.NoVal, Partition: &partition}
		rep := new(wire.UpdateJobReply)
		if err := f.call(uid, wire.MsgUpdateJob, r, rep); err != nil {
			t.Fatalf("update: %v", err)
		}
		return rep.Errno
	}
	for _, c := range []struct {
		uid       uint32
		partition string
		errno     int32
	}{{other, "grp", 2015}, {other, "grpo", 0}, {0, "rootp", 2015}, {other, "small", 0}, {0, "resv", 2015}, {0, "grp", 2015}} {
		if got := update(c.uid, c.partition); got != c.errno {
			t.Errorf("update by uid %d to %s: errno %d, want %d", c.uid, c.partition, got, c.errno)
		}
		if j := f.job(id); j.Partition != c.partition {
			t.Errorf("after the update to %s the job is in %s", c.partition, j.Partition)
		}
	}
	f.startNodes("n1", "n2")
	rel := &wire.UpdateJobRequest{JobID: id, ArrayTaskID: wire.NoVal, Action: wire.JobActionRelease}
	rep := new(wire.UpdateJobReply)
	if err := f.call(0, wire.MsgUpdateJob, rel, rep); err != nil || rep.Errno != 2015 {
		t.Errorf("release in grp: %v errno %d, want 2015 (released all the same)", err, rep.Errno)
	}
	f.waitReason(id, states.WaitPartConfig)
}

// TestPartAccess_MaxCPUsPerNode: a partition's jobs together hold at most MaxCPUsPerNode
// CPUs of a node (a third job waits with Resources; that another partition's jobs keep the
// node's other CPUs is selection's test), and an --exclusive job of the partition, which
// would hold a whole node over the limit, is refused as Slurm refuses it.
func TestPartAccess_MaxCPUsPerNode(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 8, Extra: "PartitionName=capped Nodes=n1 MaxCPUsPerNode=4\n"})
	f.startNodes("n1")
	submit := func(part string, tasks uint32) uint32 {
		d := script("sleep 1000")
		d.Partition, d.NumTasks = part, tasks
		return f.mustSubmit(d)
	}
	a, b := submit("capped", 2), submit("capped", 2)
	f.waitState(a, states.JobRunning)
	f.waitState(b, states.JobRunning)
	third := submit("capped", 1)
	f.waitReason(third, states.WaitResources)
	// A lower-priority job of another partition on the same node waits too: the main
	// scheduler withholds the nodes of a partition whose job could not start (only a
	// backfill pass may start it there), saying so as Slurm does.
	other := submit("debug", 4)
	if j := f.waitReason(other, states.WaitResources); j.StateDesc != states.DescNodesReserved {
		t.Errorf("job of another partition on the withheld node: reason text %q, want %q", j.StateDesc, states.DescNodesReserved)
	}
	d := script("sleep 1000")
	d.Partition, d.Shared = "capped", int32(jobspec.SharedNone) // --exclusive
	if _, err := f.submit(0, d); errnoOf(err) != 2014 {
		t.Errorf("--exclusive in a partition limited to 4 of 8 CPUs: %v, want errno 2014", err)
	}
}

// TestJobOwner: a job root submits with --uid and --gid belongs to that user and group
// (squeue's %u/%g, the launch's credentials); without them, to whoever signed the request.
func TestJobOwner(t *testing.T) {
	other, _ := otherUser(t)
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	d := script("exit 0")
	d.Hold = true // kept pending: only its record is looked at
	d.UserID, d.UserIDSet, d.GroupID, d.GroupIDSet = other, true, 65534, true
	if j := f.job(f.mustSubmit(d)); j.UserID != other || j.GroupID != 65534 {
		t.Errorf("root's --uid=%d --gid=65534 job: uid %d gid %d", other, j.UserID, j.GroupID)
	}
	d = script("exit 0")
	d.Hold = true
	d.UserID, d.UserIDSet = other, true
	if j := f.job(f.mustSubmit(d)); j.UserID != other || j.GroupID != 0 {
		t.Errorf("root's --uid=%d job: uid %d gid %d, want root's group kept", other, j.UserID, j.GroupID)
	}
	d = script("exit 0")
	d.Hold = true
	id, err := f.submit(other, d)
	if err != nil {
		t.Fatal(err)
	}
	if j := f.job(id); j.UserID != other || j.GroupID != other {
		t.Errorf("a user's own job: uid %d gid %d, want %d %d (the fixture signs gid=uid)", j.UserID, j.GroupID, other, other)
	}
}
