package backfill

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

const day = 24 * 3600

// TestBackfill_AdvanceReservations: what backfill plans for jobs that advance reservations
// keep from nodes, on two nodes of 4 CPUs. Plans render as "start 2 n1" (Backfilled: "*"),
// "plan 2 @3600 n1,n2" (a reservation, relative to t0) and "reason 2 Resources".
func TestBackfill_AdvanceReservations(t *testing.T) {
	r := func(name string, start, end int64, nodes ...string) scheduler.AdvanceReservation {
		return scheduler.AdvanceReservation{Name: name, StartTime: t0 + start, EndTime: t0 + end, Nodes: nodes}
	}
	in := func(name string, j scheduler.Job) scheduler.Job {
		j.Reservation = name
		return j
	}
	cases := []struct {
		name  string
		resvs []scheduler.AdvanceReservation
		jobs  []scheduler.Job
		want  []string
	}{
		{"kept off a started reservation's nodes: planned at its end",
			[]scheduler.AdvanceReservation{r("r", -60, 3600, "n1")}, []scheduler.Job{job(2, 100, 2, 4, 60)},
			[]string{"plan 2 @3600 n1,n2", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"a run that would meet a later reservation: planned at its end, a short job goes first",
			[]scheduler.AdvanceReservation{r("r", 3600, 7200, "n1")}, []scheduler.Job{job(2, 100, 2, 4, 120), job(3, 10, 2, 4, 30)},
			[]string{"start 3 n1,n2", "plan 2 @7200 n1,n2", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"no time limit: kept off next week's reservation, planned after it past bf_window",
			[]scheduler.AdvanceReservation{r("r", 7*day, 8*day, "n1")}, []scheduler.Job{job(2, 100, 2, 4, scheduler.Infinite)},
			[]string{"plan 2 @691200 -", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"a job in a reservation not started yet: planned at its start, on its nodes",
			[]scheduler.AdvanceReservation{r("r", 1800, 7200, "n2")}, []scheduler.Job{in("r", job(2, 100, 1, 4, 60))},
			[]string{"plan 2 @1800 n2", "reason 2 Reservation"}},
		{"a job in a reservation waits for its nodes, not the others",
			[]scheduler.AdvanceReservation{r("r", -60, 7200, "n2")},
			[]scheduler.Job{running(1, []string{"n2"}, 4, t0-60, 10), in("r", job(2, 100, 1, 4, 60))},
			[]string{"plan 2 @540 n2", "reason 2 Resources"}},
		// As in Slurm, the main pass skips over a job kept off reserved nodes: a later job
		// may take what it will need and delay it.
		{"a job kept off reserved nodes holds nothing in the main pass",
			[]scheduler.AdvanceReservation{r("r", -60, 3600, "n1")}, []scheduler.Job{job(2, 100, 2, 4, 60), job(3, 10, 1, 4, 100)},
			[]string{"start 3 n2", "plan 2 @6000 n1,n2", "reason 2 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"a job in a reservation plans beside a job kept off its nodes",
			[]scheduler.AdvanceReservation{r("r", -60, 3600, "n1")},
			[]scheduler.Job{running(1, []string{"n1"}, 4, t0-60, 10), in("r", job(2, 10, 1, 4, 30)), job(3, 100, 2, 4, 60)},
			[]string{"plan 2 @540 n1", "plan 3 @3600 n1,n2", "reason 2 Resources", "reason 3 ReqNodeNotAvail (" + states.DescResvOtherJob + ")"}},
		{"no reservation: unchanged",
			nil, []scheduler.Job{running(1, []string{"n1"}, 4, t0-60, 10), job(2, 100, 2, 4, 60), job(3, 10, 1, 4, 5)},
			[]string{"start 3 n2*", "plan 2 @540 n1,n2", "reason 2 Resources"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := cluster(2, 4)
			s.Jobs, s.Reservations = c.jobs, c.resvs
			if got := render(schedule(t, s)); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// render is a plan's starts, reservations and reasons, one line each.
func render(p scheduler.Plan) []string {
	var out []string
	for _, s := range p.Starts {
		line := fmt.Sprintf("start %d %s", s.JobID, joinNodes(s.Nodes))
		if s.Backfilled {
			line += "*"
		}
		out = append(out, line)
	}
	for _, r := range p.Reservations {
		out = append(out, fmt.Sprintf("plan %d @%d %s", r.JobID, r.StartTime-t0, joinNodes(r.Nodes)))
	}
	for _, r := range p.Reasons {
		line := fmt.Sprintf("reason %d %s", r.JobID, states.Reason(r.Reason))
		if r.Desc != "" {
			line += " (" + r.Desc + ")"
		}
		out = append(out, line)
	}
	return out
}

// joinNodes is ns joined by commas, "-" for none.
func joinNodes(ns []string) string {
	if len(ns) == 0 {
		return "-"
	}
	return strings.Join(ns, ",")
}

// A change of the advance reservations ends a yielded pass, even with bf_continue: the map
// it began with no longer says which nodes its jobs may have.
func TestBackfill_ReservationChangeEndsYieldedPass(t *testing.T) {
	b, _ := yieldState("bf_interval=30,bf_max_time=3600,bf_yield_interval=2500000,bf_continue")
	if p := mustSchedule(t, b, t0); p.Stats.Backfill {
		t.Fatalf("first call should yield: %+v", p.Stats)
	}
	d := scheduler.Delta{Seq: 2, Now: t0 + 5, ReservationsSet: true,
		Reservations: []scheduler.AdvanceReservation{{Name: "r", StartTime: t0, EndTime: t0 + day, Nodes: []string{"n2"}}}}
	if err := b.Update(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if p := mustSchedule(t, b, t0+5); !p.Stats.Backfill || p.Stats.Depth != 2 || started(p, 4) != nil {
		t.Errorf("the pass should end at the change after 2 jobs, job 4 kept off n2: starts %+v stats %+v", p.Starts, p.Stats)
	}
}
