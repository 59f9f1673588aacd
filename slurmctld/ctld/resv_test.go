package ctld_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// nobodyUID is a user every Debian system has, never root nor an operator.
const nobodyUID = 65534

// resvDesc is a create or update request with nothing set.
func resvDesc(name string) *wire.ResvDesc {
	return &wire.ResvDesc{Name: name, Duration: wire.NoVal, Flags: wire.NoVal64, MaxStartDelay: wire.NoVal, Watts: wire.NoVal}
}

func (f *fixture) createResv(d *wire.ResvDesc) (string, error) {
	rep := new(wire.CreateResvReply)
	err := f.call(0, wire.MsgCreateResv, d, rep)
	return rep.Name, err
}

func (f *fixture) resvs() []wire.ResvInfo {
	f.t.Helper()
	rep := new(wire.ResvInfoReply)
	if err := f.call(0, wire.MsgResvInfo, &wire.ResvInfoRequest{}, rep); err != nil {
		f.t.Fatalf("reservation info: %v", err)
	}
	return rep.Reservations
}

// Creation checks the request in Slurm's order and answers with Slurm's errnos; the name of a
// reservation created without one is its first user's with the next suffix, which a request
// failing after it was taken still uses up (Slurm's top_suffix).
func TestResv_CreateChecks(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4})
	f.startNodes("n1", "n2", "n3", "n4") // NodeCnt picks only nodes that are up
	now := time.Now().Unix()
	d := resvDesc("")
	d.StartTime, d.Duration, d.NodeList, d.Users = now, 60, "n[1-2]", "root"
	if name, err := f.createResv(d); err != nil || name != "root_1" {
		t.Fatalf("create: %q %v, want root_1", name, err)
	}
	for _, k := range []struct {
		what  string
		edit  func(d *wire.ResvDesc)
		errno int32
	}{
		{"overlap", func(d *wire.ResvDesc) {}, 2058},
		{"duplicate name", func(d *wire.ResvDesc) { d.Name, d.NodeList = "root_1", "n3" }, 2082},
		{"no users or accounts", func(d *wire.ResvDesc) { d.Users, d.NodeList = "", "n3" }, 2080},
		{"unknown user", func(d *wire.ResvDesc) { d.Users, d.NodeList = "no-such-user-here", "n3" }, 2010},
		{"unknown node", func(d *wire.ResvDesc) { d.NodeList = "n9" }, 2018},
		{"unknown partition", func(d *wire.ResvDesc) { d.NodeList, d.Partition = "n3", "nope" }, 2000},
		{"start long past", func(d *wire.ResvDesc) { d.NodeList, d.StartTime = "n3", now-3600 }, 2054},
		{"operator only", nil, 2002},
		{"unsupported flag", func(d *wire.ResvDesc) { d.NodeList, d.Flags = "n3", wire.ResvTimeFloat }, 2036},
	} {
		d := resvDesc("")
		d.StartTime, d.Duration, d.NodeList, d.Users = now, 60, "n[1-2]", "root"
		var err error
		if k.edit == nil {
			err = f.call(nobodyUID, wire.MsgCreateResv, d, new(wire.CreateResvReply))
		} else {
			k.edit(d)
			_, err = f.createResv(d)
		}
		if errnoOf(err) != k.errno {
			t.Errorf("%s: %v, want errno %d", k.what, err, k.errno)
		}
	}
	// The duplicate name took suffix 2; NodeCnt picks the first free nodes of the default
	// partition, and names it.
	d = resvDesc("")
	d.StartTime, d.Duration, d.NodeCnt, d.Users = now, 10, 1, "root"
	if name, err := f.createResv(d); err != nil || name != "root_3" {
		t.Fatalf("create NodeCnt=1: %q %v, want root_3", name, err)
	}
	// More than are left: as many as are (Slurm's "Reducing requested node count").
	d = resvDesc("")
	d.StartTime, d.Duration, d.NodeCnt, d.Users = now, 10, 5, "root"
	if name, err := f.createResv(d); err != nil || name != "root_4" {
		t.Fatalf("create NodeCnt=5: %q %v, want root_4", name, err)
	}
	d = resvDesc("")
	d.StartTime, d.Duration, d.NodeCnt, d.Users = now, 10, 1, "root"
	if _, err := f.createResv(d); errnoOf(err) != 2016 {
		t.Errorf("NodeCnt=1 with every node reserved: %v, want errno 2016", err)
	}
	d = resvDesc("maint")
	d.StartTime, d.Duration, d.NodeList, d.Users, d.Flags = now+3600, 10, "ALL", "root", wire.ResvMaint
	if _, err := f.createResv(d); err != nil {
		t.Fatalf("create MAINT on ALL over the others: %v", err)
	}
	got := f.resvs()
	if len(got) != 4 {
		t.Fatalf("reservations: %+v", got)
	}
	r1, r3, r4, m := got[0], got[1], got[2], got[3]
	if r4.Nodes != "n4" || r4.NodeCnt != 1 {
		t.Errorf("root_4: %+v", r4)
	}
	if r1.Name != "root_1" || r1.Nodes != "n[1-2]" || r1.NodeCnt != 2 || r1.CoreCnt != 8 || r1.TRES != "cpu=8" ||
		r1.Flags != wire.ResvSpecNodes || r1.Users != "root" || r1.EndTime-r1.StartTime != 3600 {
		t.Errorf("root_1: %+v", r1)
	}
	if r3.Name != "root_3" || r3.Nodes != "n3" || r3.Partition != "debug" || r3.Flags != 0 {
		t.Errorf("root_3: %+v", r3)
	}
	if m.Nodes != "n[1-4]" || m.Flags != wire.ResvMaint|wire.ResvSpecNodes|wire.ResvAllNodes {
		t.Errorf("maint: %+v", m)
	}
	// Only an active reservation marks its nodes.
	ns := f.nodeStates()
	if ns["n1"]&states.NodeReserved == 0 || ns["n3"]&states.NodeReserved == 0 || ns["n4"]&states.NodeReserved == 0 ||
		ns["n1"]&states.NodeMaint != 0 {
		t.Errorf("node states: %v", ns)
	}
}

// A job may name only a reservation that exists and admits it; it runs on the reservation's
// nodes, and other jobs never do while it is active; a reservation a job names cannot be
// deleted.
func TestResv_JobsInAndOut(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 2})
	f.startNodes("n1", "n2", "n3", "n4")
	d := resvDesc("r1")
	d.StartTime, d.Duration, d.NodeList, d.Users = time.Now().Unix(), 60, "n[2-3]", "root"
	if _, err := f.createResv(d); err != nil {
		t.Fatal(err)
	}
	j := script("sleep 1000")
	j.Reservation = "nope"
	if _, err := f.submit(0, j); errnoOf(err) != 2053 {
		t.Errorf("unknown reservation: %v, want 2053", err)
	}
	j.Reservation = "r1"
	if _, err := f.submit(nobodyUID, j); errnoOf(err) != 2052 {
		t.Errorf("a user the reservation does not admit: %v, want 2052", err)
	}
	j.MinNodes = 2
	in := f.mustSubmit(j)
	if got := f.waitState(in, states.JobRunning); got.NodeList != "n[2-3]" || got.Reservation != "r1" {
		t.Errorf("job in r1 runs on %s (reservation %q), want n[2-3]", got.NodeList, got.Reservation)
	}
	out := script("sleep 1000")
	out.MinNodes, out.NumTasks = 2, 4 // both CPUs of two nodes
	o := f.mustSubmit(out)
	if got := f.waitState(o, states.JobRunning); got.NodeList != "n[1,4]" {
		t.Errorf("job outside runs on %s, want n[1,4]", got.NodeList)
	}
	if err := f.call(0, wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: "r1"}, nil); errnoOf(err) != 2055 {
		t.Errorf("delete of a reservation in use: %v, want 2055", err)
	}
	f.kill(0, in, 9)
	f.waitFor("job in r1 gone", func() bool { return !states.JobState(f.job(in).State).IsRunning() })
	// n2 and n3 are free but reserved: a job outside waits.
	late := f.mustSubmit(script("sleep 1000"))
	time.Sleep(300 * time.Millisecond)
	if got := f.job(late); !states.JobState(got.State).IsPending() {
		t.Errorf("job outside the reservation started on %s", got.NodeList)
	}
	if err := f.call(0, wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: "r1"}, nil); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if got := f.waitState(late, states.JobRunning); got.NodeList != "n2" {
		t.Errorf("after the delete the job runs on %s, want n2", got.NodeList)
	}
	// The job that ran in r1 no longer names it (the reference's scontrol show job has no
	// Reservation= for it then).
	if got := f.job(in); got.Reservation != "" {
		t.Errorf("finished job names the deleted reservation %q", got.Reservation)
	}
	if err := f.call(0, wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: "r1"}, nil); errnoOf(err) != 2053 {
		t.Errorf("second delete: %v, want 2053", err)
	}
}

// A job in a reservation that has not started waits with reason Reservation and starts when
// it opens; a job without a time limit is kept off the nodes of a reservation that starts
// later, one that ends before it is not. At its end a reservation goes, and a job still
// waiting in it is held (RESV_DEL_HOLD, ReservationDeleted) until released.
func TestResv_WindowOpensAndEnds(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 1, Now: clk.now})
	f.startNodes("n1", "n2")
	now := clk.now().Unix()
	d := resvDesc("later")
	d.StartTime, d.Duration, d.NodeList, d.Users = now+3600, 30, "n1", "root"
	if _, err := f.createResv(d); err != nil {
		t.Fatal(err)
	}
	d = resvDesc("other")
	d.StartTime, d.Duration, d.NodeList, d.Users = now+3600, 10, "n2", "root"
	if _, err := f.createResv(d); err != nil {
		t.Fatal(err)
	}
	in := script("sleep 1000")
	in.Reservation, in.TimeLimit = "later", 5
	inID := f.mustSubmit(in)
	f.waitReason(inID, states.WaitReservation)
	forever := f.mustSubmit(script("sleep 1000")) // no time limit: both nodes are reserved within a year
	short := script("sleep 1000")
	short.TimeLimit = 30
	shortID := f.mustSubmit(short)
	if got := f.waitState(shortID, states.JobRunning); got.NodeList != "n1" {
		t.Errorf("short job runs on %s, want n1", got.NodeList)
	}
	if got := f.job(forever); !states.JobState(got.State).IsPending() {
		t.Errorf("job without a limit started on %s, inside a later reservation's window", got.NodeList)
	}
	waiting := script("sleep 1000")
	waiting.Reservation = "other"
	waitingID := f.mustSubmit(waiting)
	f.kill(0, shortID, 9)
	clk.advance(3601 * time.Second)
	if got := f.waitState(inID, states.JobRunning); got.NodeList != "n1" {
		t.Errorf("job in the opened reservation runs on %s", got.NodeList)
	}
	if got := f.job(waitingID); !states.JobState(got.State).IsRunning() {
		f.waitState(waitingID, states.JobRunning)
	}
	f.kill(0, waitingID, 9)
	w2 := script("sleep 1000")
	w2.Reservation = "other"
	w2.MinNodes = 2 // never fits in "other": still waiting at its end
	w2ID := f.mustSubmit(w2)
	clk.advance(601 * time.Second)
	f.waitFor("reservation other gone", func() bool {
		return !slices.ContainsFunc(f.resvs(), func(r wire.ResvInfo) bool { return r.Name == "other" })
	})
	j := f.waitReason(w2ID, states.WaitResvDeleted)
	if !states.JobState(j.State).Has(states.JobResvDelHold) || j.StateDesc != "Reservation other was deleted" || j.Reservation != "" || j.Priority != 0 {
		t.Errorf("job of the ended reservation: state %s desc %q reservation %q priority %d", states.JobState(j.State), j.StateDesc, j.Reservation, j.Priority)
	}
	if rep := f.update(0, w2ID, wire.NoVal, wire.JobActionRelease); rep.Errno != 0 {
		t.Fatalf("release: %+v", rep)
	}
	if j := f.job(w2ID); states.JobState(j.State).Has(states.JobResvDelHold) || j.Priority == 0 {
		t.Errorf("released job: state %s priority %d", states.JobState(j.State), j.Priority)
	}
}

// A reservation whose nodes were chosen for it (NodeCnt=) trades a node that goes DOWN for
// a usable one, as Slurm's test_flags.py expects without flags and with REPLACE_DOWN; one of
// named nodes or STATIC_ALLOC keeps its nodes.
func TestResv_DownNodesReplaced(t *testing.T) {
	for _, k := range []struct {
		name     string
		flags    uint64
		nodes    string
		replaced bool
	}{
		{"no flags", wire.NoVal64, "", true},
		{"REPLACE_DOWN", wire.ResvReplaceDown, "", true},
		{"STATIC_ALLOC", wire.ResvStatic, "", false},
		{"named nodes", wire.NoVal64, "n1", false},
	} {
		t.Run(k.name, func(t *testing.T) {
			f := newFixture(t, ctld.TestConfig{Nodes: 3})
			f.startNodes("n1", "n2", "n3")
			d := resvDesc("r")
			d.StartTime, d.Duration, d.Users, d.Flags, d.NodeList = time.Now().Unix(), 60, "root", k.flags, k.nodes
			if k.nodes == "" {
				d.NodeCnt = 1
			}
			if _, err := f.createResv(d); err != nil {
				t.Fatal(err)
			}
			if got := f.resvs()[0].Nodes; got != "n1" {
				t.Fatalf("reservation on %s, want n1", got)
			}
			if err := f.call(0, wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: "n1", State: "DOWN", Reason: "testing"}, nil); err != nil {
				t.Fatal(err)
			}
			if k.replaced {
				f.waitFor("n1 replaced", func() bool { return f.resvs()[0].Nodes == "n2" })
				if ns := f.nodeStates(); ns["n2"]&states.NodeReserved == 0 || ns["n1"]&states.NodeReserved != 0 {
					t.Errorf("node states after the replacement: %v", ns)
				}
				return
			}
			time.Sleep(1500 * time.Millisecond) // the reservations are looked at each second
			if got := f.resvs()[0].Nodes; got != "n1" {
				t.Errorf("reservation moved to %s", got)
			}
		})
	}
}

// An update computes the window as Slurm's update_resv does, checked on the reference: a
// new start keeps the end of a reservation given by its end time and moves the end of one
// given a duration; a started one's start cannot move; a duration added to one that has
// none wraps around Slurm's NO_VAL.
func TestResv_UpdateWindow(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2})
	now := time.Now().Unix()
	create := func(name string, start, end int64, dur uint32, node string) {
		t.Helper()
		d := resvDesc(name)
		d.StartTime, d.EndTime, d.Duration, d.NodeList, d.Users = start, end, dur, node, "root"
		if _, err := f.createResv(d); err != nil {
			t.Fatal(err)
		}
	}
	update := func(name string, edit func(d *wire.ResvDesc)) (wire.ResvInfo, int32) {
		t.Helper()
		d := resvDesc(name)
		edit(d)
		err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil)
		for _, r := range f.resvs() {
			if r.Name == name {
				return r, errnoOf(err)
			}
		}
		t.Fatalf("no reservation %s", name)
		return wire.ResvInfo{}, 0
	}
	create("byend", now+3600, now+3*3600, wire.NoVal, "n1")
	if r, e := update("byend", func(d *wire.ResvDesc) { d.StartTime = now + 1800 }); e != 0 || r.StartTime != now+1800 || r.EndTime != now+3*3600 {
		t.Errorf("new start of a reservation given by its end: %d-%d (errno %d)", r.StartTime-now, r.EndTime-now, e)
	}
	if _, e := update("byend", func(d *wire.ResvDesc) { d.EndTime = now }); e != 2054 {
		t.Errorf("end before start: errno %d, want 2054", e)
	}
	r, _ := update("byend", func(d *wire.ResvDesc) { d.Duration, d.Flags = 30, wire.ResvDurPlus })
	r, _ = update("byend", func(d *wire.ResvDesc) { d.Duration, d.Flags = 15, wire.ResvDurMinus })
	if r.EndTime-r.StartTime != 13*60 {
		t.Errorf("NO_VAL+30-15 minutes: %d s, want 780 as Slurm's arithmetic gives", r.EndTime-r.StartTime)
	}
	create("bydur", now+3600, 0, 60, "n2")
	if r, e := update("bydur", func(d *wire.ResvDesc) { d.StartTime = now + 7200 }); e != 0 || r.EndTime != now+3*3600 {
		t.Errorf("new start of a reservation given a duration: end %d (errno %d)", r.EndTime-now, e)
	}
	if r, e := update("bydur", func(d *wire.ResvDesc) { d.Duration = wire.Infinite }); e != 0 || r.EndTime != now+7200+365*24*3600 {
		t.Errorf("Duration=UNLIMITED: end %d (errno %d)", r.EndTime-now, e)
	}
	if err := f.call(0, wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: "byend"}, nil); err != nil {
		t.Fatal(err)
	}
	create("started", now, 0, 60, "n1")
	if _, e := update("started", func(d *wire.ResvDesc) { d.StartTime = now + 60 }); e != 2104 {
		t.Errorf("moving a started reservation: errno %d, want 2104", e)
	}
}

// PURGE_COMP: an active reservation no job names for its purge time goes; one a job names
// stays. MaxStartDelay, whose effect Orbit lacks, is refused by name.
func TestResv_PurgeComp(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Now: clk.now})
	f.startNodes("n1", "n2")
	now := clk.now().Unix()
	for _, name := range []string{"idle", "used"} {
		d := resvDesc(name)
		d.StartTime, d.Duration, d.Users, d.Flags, d.PurgeCompTime = now, 600, "root", wire.ResvPurgeComp, 60
		d.NodeList = map[string]string{"idle": "n1", "used": "n2"}[name]
		if _, err := f.createResv(d); err != nil {
			t.Fatal(err)
		}
	}
	j := script("sleep 1000")
	j.Reservation = "used"
	f.waitState(f.mustSubmit(j), states.JobRunning)
	// The idle time starts at the first tick (each second) that sees the reservation idle:
	// the clock moves past the purge time once a second until a tick has purged it.
	var moved time.Time
	f.waitFor("idle reservation purged", func() bool {
		if time.Since(moved) >= time.Second {
			clk.advance(61 * time.Second)
			moved = time.Now()
		}
		return len(f.resvs()) == 1
	})
	if got := f.resvs()[0].Name; got != "used" {
		t.Errorf("left: %s, want used", got)
	}
	d := resvDesc("late")
	d.StartTime, d.Duration, d.Users, d.NodeList, d.MaxStartDelay = clk.now().Unix(), 10, "root", "n1", 300
	if _, err := f.createResv(d); errnoOf(err) != 2036 || !strings.Contains(err.Error(), "MaxStartDelay") {
		t.Errorf("MaxStartDelay: %v, want it refused by name", err)
	}
}

// Who may use a reservation, as Slurm's _valid_job_access_resv decides without associations:
// a job must pass the user list (when there is one) and the account list (when there is
// one); Groups= admits the members of the groups, found through NSS when they are set.
func TestResv_AccessLists(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4})
	now := time.Now().Unix()
	create := func(name, node string, edit func(d *wire.ResvDesc)) {
		t.Helper()
		d := resvDesc(name)
		d.StartTime, d.Duration, d.NodeList = now+3600, 60, node
		edit(d)
		if _, err := f.createResv(d); err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
	}
	// nogroup's only member on Debian is nobody, whose primary group it is; root's group
	// lists root first, where Slurm's list of uids ends, so it admits everyone.
	create("grp", "n1", func(d *wire.ResvDesc) { d.Groups = "nogroup" })
	create("rootgrp", "n2", func(d *wire.ResvDesc) { d.Groups = "root" })
	create("both", "n3", func(d *wire.ResvDesc) { d.Users, d.Accounts = "root", "acct1" })
	create("nots", "n4", func(d *wire.ResvDesc) { d.Users, d.Accounts = "-nobody", "-acct1" })
	for _, c := range []struct {
		resv    string
		uid     uint32
		account string
		errno   int32
	}{
		{"grp", nobodyUID, "", 0},
		{"grp", 0, "", 2052},
		{"rootgrp", nobodyUID, "", 0},
		{"rootgrp", 0, "", 0},
		{"both", 0, "", 2052}, // listed user, but no account to pass the account list
		{"both", 0, "acct1", 0},
		{"both", nobodyUID, "acct1", 2052},
		{"nots", 0, "acct2", 0},
		{"nots", 0, "acct1", 2052},
		{"nots", nobodyUID, "acct2", 2052},
	} {
		j := script("true")
		j.Reservation, j.Account, j.Hold = c.resv, c.account, true
		if _, err := f.submit(c.uid, j); errnoOf(err) != c.errno {
			t.Errorf("uid %d account %q into %s: %v, want errno %d", c.uid, c.account, c.resv, err, c.errno)
		}
	}
	d := resvDesc("grp")
	d.Groups = "no-such-group-here"
	if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); errnoOf(err) != 2113 {
		t.Errorf("unknown group: %v, want 2113", err)
	}
	d = resvDesc("grp")
	d.Users = "root"
	if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); errnoOf(err) != 2129 {
		t.Errorf("users beside groups: %v, want 2129", err)
	}
	d = resvDesc("grp")
	d.Groups = "-nogroup"
	if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); errnoOf(err) != 2080 {
		t.Errorf("last group removed: %v, want 2080 (nobody left to admit)", err)
	}
	// List edits (Slurm's _update_account_list): -x on a list removes x; -x on an empty
	// list starts a list of refused accounts; any other edit leaves a list of admitted
	// ones, even of those refused before.
	for _, c := range []struct{ edit, want string }{
		{"-acct1", ""}, {"-acct1", "-acct1"}, {"+acct2,+acct3", "acct1,acct2,acct3"}, {"acct4", "acct4"},
	} {
		d := resvDesc("both")
		d.Accounts = c.edit
		if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); err != nil {
			t.Fatalf("accounts %s: %v", c.edit, err)
		}
		for _, r := range f.resvs() {
			if r.Name == "both" && r.Accounts != c.want {
				t.Errorf("after Accounts=%s: %q, want %q", c.edit, r.Accounts, c.want)
			}
		}
	}
	d = resvDesc("both")
	d.Accounts = "-acct9"
	if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); errnoOf(err) != 2045 {
		t.Errorf("removing an account not listed: %v, want 2045", err)
	}
	d = resvDesc("both")
	d.Users = "-nobody" // a user not listed is passed over
	if err := f.call(0, wire.MsgUpdateResv, (*wire.UpdateResvRequest)(d), nil); err != nil {
		t.Errorf("removing a user not listed: %v", err)
	}
}

// TestResv_Features: NodeCnt= with Features= takes nodes with those (active) features (here
// set by scontrol update); too few such nodes, an unknown feature or a matching
// OR list are refused as the reference refuses them; Nodes= needs no feature check.
func TestResv_Features(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4})
	f.startNodes("n1", "n2", "n3", "n4")
	for nodes, feat := range map[string]string{"n2,n4": "bar", "n3": "foo"} {
		if err := f.call(0, wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: nodes, Features: &feat}, new(wire.OK)); err != nil {
			t.Fatalf("update %s AvailableFeatures=%s: %v", nodes, feat, err)
		}
	}
	now := time.Now().Unix()
	for _, k := range []struct {
		features string
		nodeCnt  uint32
		nodes    string
		want     string
		errno    int32
	}{
		{"bar", 2, "", "n[2,4]", 0},
		{"foo|bar", 1, "", "n2", 0},
		{"foo", 2, "", "", 2014},
		{"foo&bar", 1, "", "", 2014},
		{"nothere", 1, "", "", 2029},
		{"[foo|bar]", 1, "", "", 2029},
		{"nothere", 0, "n1", "n1", 0},
	} {
		d := resvDesc("feat")
		d.StartTime, d.Duration, d.Users, d.Features = now, 10, "root", k.features
		d.NodeCnt, d.NodeList = k.nodeCnt, k.nodes
		_, err := f.createResv(d)
		if errnoOf(err) != k.errno {
			t.Errorf("Features=%s NodeCnt=%d: %v, want errno %d", k.features, k.nodeCnt, err, k.errno)
			continue
		}
		if err != nil {
			continue
		}
		if got := f.resvs(); len(got) != 1 || got[0].Nodes != k.want || got[0].Features != k.features {
			t.Errorf("Features=%s NodeCnt=%d: %+v, want nodes %s", k.features, k.nodeCnt, got, k.want)
		}
		if err := f.call(0, wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: "feat"}, nil); err != nil {
			t.Fatalf("delete: %v", err)
		}
	}
}
