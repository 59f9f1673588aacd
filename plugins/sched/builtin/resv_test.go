package builtin

import (
	"context"
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

const day = 24 * 3600

// resv is an advance reservation of nodes over [start, end), relative to state's Now.
func resv(name string, start, end int64, nodes ...string) scheduler.AdvanceReservation {
	return scheduler.AdvanceReservation{Name: name, StartTime: 1000 + start, EndTime: 1000 + end, Nodes: nodes}
}

// in is j in reservation r.
func in(r string, j scheduler.Job) scheduler.Job {
	j.Reservation = r
	return j
}

// limit is j with a time limit of that many minutes.
func limit(minutes uint32, j scheduler.Job) scheduler.Job {
	j.TimeLimit = minutes
	return j
}

func TestBuiltin_Schedule_AdvanceReservations(t *testing.T) {
	two := map[string][]string{"p1": {"n1", "n2"}}
	maint := resv("m", -60, day, "n1")
	maint.Maint = true
	// Slurm's job_test_resv reports maintenance for a MAINT reservation only when it holds
	// the job's whole partition, and for any made of all nodes or of the partition's.
	maintAll := resv("m", -60, day, "n1", "n2")
	maintAll.Maint = true
	allNodes := resv("a", -60, day, "n1", "n2")
	allNodes.AllNodes = true
	partNodes := resv("p", -60, day, "n1", "n2")
	partNodes.PartNodes = "p1"
	onN1 := pend(4, 20, "p1", 1)
	onN1.ReqNodes = []string{"n1"}
	busyN2 := scheduler.Job{ID: 1, State: scheduler.JobRunning, Partition: "p1", StartTime: 900, TimeLimit: 10,
		Nodes: []string{"n2"}, CPUs: []uint32{4}, NumTasks: 4, MinNodes: 1, CPUsPerTask: 1}
	busyN1 := busyN2
	busyN1.Nodes = []string{"n1"}
	cases := []struct {
		name  string
		resvs []scheduler.AdvanceReservation
		jobs  []scheduler.Job
		want  []string
	}{
		{"kept off a started reservation's nodes, starts on others",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1")}, []scheduler.Job{pend(2, 10, "p1", 1)},
			[]string{"start 2 n2:1"}},
		{"no time limit: kept off the nodes of next week's reservation",
			[]scheduler.AdvanceReservation{resv("r", 7*day, 8*day, "n1")}, []scheduler.Job{limit(scheduler.Infinite, pend(2, 10, "p1", 1))},
			[]string{"start 2 n2:1"}},
		{"a short job may use them until the reservation starts",
			[]scheduler.AdvanceReservation{resv("r", 3600, day, "n1")}, []scheduler.Job{limit(30, pend(2, 10, "p1", 1))},
			[]string{"start 2 n1:1"}},
		{"a run that reaches the reservation's start may not",
			[]scheduler.AdvanceReservation{resv("r", 3600, day, "n1")}, []scheduler.Job{limit(61, pend(2, 10, "p1", 1))},
			[]string{"start 2 n2:1"}},
		{"a job in a reservation starts on its nodes only",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n2")}, []scheduler.Job{in("r", pend(2, 10, "p1", 1))},
			[]string{"start 2 n2:1"}},
		{"a job in a reservation is kept off another one's nodes (maintenance)",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1", "n2"), maint}, []scheduler.Job{in("r", pend(2, 10, "p1", 1))},
			[]string{"start 2 n2:1"}},
		{"a job in a reservation not started yet does not start",
			[]scheduler.AdvanceReservation{resv("r", 3600, day, "n1")}, []scheduler.Job{in("r", pend(2, 10, "p1", 1)), pend(3, 5, "p1", 1)},
			[]string{"start 3 n1:1", "reason 2 Reservation"}}, // job 3 ends before r starts
		{"a job in a reservation that does not exist does not start",
			nil, []scheduler.Job{in("r", pend(2, 10, "p1", 1))},
			[]string{"reason 2 Reservation"}},
		{"kept off reserved nodes it needs: may be reserved for other job, blocks nothing",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1")}, []scheduler.Job{pend(2, 10, "p1", 8), pend(3, 5, "p1", 1)},
			[]string{"start 3 n2:1", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"kept off some nodes in maintenance: may be reserved for other job, blocks nothing",
			[]scheduler.AdvanceReservation{maint}, []scheduler.Job{pend(2, 10, "p1", 8), pend(3, 5, "p1", 1)},
			[]string{"start 3 n2:1", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"maintenance of the whole partition: reserved for maintenance",
			[]scheduler.AdvanceReservation{maintAll}, []scheduler.Job{pend(2, 10, "p1", 8), pend(3, 5, "p1", 1)},
			[]string{"reason 2 ReqNodeNotAvail (" + states.DescResvMaint + ")", "reason 3 ReqNodeNotAvail (" + states.DescResvMaint + ")"}},
		{"a reservation of all nodes, maintenance or not: reserved for maintenance",
			[]scheduler.AdvanceReservation{allNodes}, []scheduler.Job{pend(3, 5, "p1", 1)},
			[]string{"reason 3 ReqNodeNotAvail (" + states.DescResvMaint + ")"}},
		{"a reservation of the partition's nodes: reserved for maintenance",
			[]scheduler.AdvanceReservation{partNodes}, []scheduler.Job{pend(3, 5, "p1", 1)},
			[]string{"reason 3 ReqNodeNotAvail (" + states.DescResvMaint + ")"}},
		{"a --nodelist of reserved nodes: not available",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1")}, []scheduler.Job{onN1, pend(3, 5, "p1", 1)},
			[]string{"start 3 n2:1", "reason 4 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"fits beside the reservation once running jobs end: Resources, blocks its partition",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1")}, []scheduler.Job{busyN2, pend(2, 10, "p1", 1), pend(3, 5, "p1", 1)},
			[]string{"reason 2 Resources", "reason 3 Priority"}},
		{"a job in a reservation short of resources blocks its reservation, not its partition",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n1")},
			[]scheduler.Job{busyN1, in("r", pend(2, 10, "p1", 1)), in("r", pend(3, 9, "p1", 1)), pend(4, 5, "p1", 1)},
			[]string{"start 4 n2:1", "reason 2 Resources", "reason 3 Priority"}},
		// Job 2 would block the partition and withhold n2 first in priority order.
		{"jobs in reservations go first",
			[]scheduler.AdvanceReservation{resv("r", -60, day, "n2")}, []scheduler.Job{busyN1, pend(2, 30, "p1", 1), in("r", pend(3, 10, "p1", 4))},
			[]string{"start 3 n2:4", "reason 2 Resources"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := state(nodes(2, 4, 0), two, c.jobs...)
			s.Reservations = c.resvs
			b := New(s.Config)
			if err := b.Sync(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			p, err := b.Schedule(context.Background(), s.Now)
			if err != nil {
				t.Fatal(err)
			}
			if got := outcome(p); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestResvs_At_SharesMasks: jobs whose runs meet the same reservations share one mask, and
// a job the reservations do not apply to costs nothing.
func TestResvs_At_SharesMasks(t *testing.T) {
	ns := nodes(3, 4, 0)
	part := &scheduler.Partition{Name: "p1", Nodes: []string{"n1", "n2", "n3"}, MaxTime: scheduler.Infinite}
	pool := selection.NewPool(selection.ParseMode("", "CR_CPU"), ns)
	rs := NewResvs([]scheduler.AdvanceReservation{resv("a", -60, 3600, "n1"), resv("b", 7200, day, "n2")}, ns, pool)
	short, long := limit(30, pend(1, 1, "p1", 1)), limit(600, pend(2, 1, "p1", 1))
	v1, v2 := rs.At(&short, part, 1000), rs.At(&short, part, 1000)
	if !slices.Equal(v1.Barred, []bool{true, false, false}) || &v1.Barred[0] != &v2.Barred[0] {
		t.Errorf("short job: barred %v and %v, want n1 only, one shared mask", v1.Barred, v2.Barred)
	}
	if v := rs.At(&long, part, 1000); !slices.Equal(v.Barred, []bool{true, true, false}) {
		t.Errorf("long job: barred %v, want n1 and n2", v.Barred)
	}
	if v := rs.At(&short, part, 1000+3600); v.Barred != nil {
		t.Errorf("short job after a ends: barred %v, want none", v.Barred)
	}
	none := NewResvs(nil, ns, pool)
	if none.Applies(&short) {
		t.Error("no reservations and a job naming none: Applies")
	}
	if n := testing.AllocsPerRun(100, func() { _ = rs.At(&short, part, 1000) }); n != 0 {
		t.Errorf("a known set of reservations: %v allocations per job, want 0", n)
	}
}
