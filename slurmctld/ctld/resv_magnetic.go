package ctld

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Magnetic reservations (flags=MAGNETIC) draw jobs that name no reservation: Slurm queues
// such a job once in each magnetic reservation whose access lists admit it, ahead of its
// plain entry, and a job started in one runs in it as if it had named it (Reservation= in
// squeue and scontrol show job). Orbit tells the scheduler plugin which magnetic
// reservations admit each pending job (scheduler.Job.Magnetic); a start in one names it
// (scheduler.Start.Reservation) and is checked here as a start of a job in that
// reservation.

// magneticResvs are the magnetic reservations not yet ended, in order of start, then name.
// Called with c.mu held.
func (t *tables) magneticResvs(now int64) []*resvRecord {
	var out []*resvRecord
	for _, r := range t.resvs {
		if r.has(wire.ResvMagnetic) && now < r.EndTime {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *resvRecord) int {
		return cmp.Or(cmp.Compare(a.StartTime, b.StartTime), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// magneticFor names the reservations of magnets that job j may be drawn into: j names no
// reservation and the reservation admits its user and account.
func magneticFor(magnets []*resvRecord, j *jobRecord) []string {
	if j.descStr(descReservation) != "" {
		return nil
	}
	var out []string
	for _, r := range magnets {
		if resvAdmits(r, j.UserID, j.descStr(descAccount)) {
			out = append(out, r.Name)
		}
	}
	return out
}

// magneticStart checks that job j, naming no reservation, may start in magnetic
// reservation name now. Called with c.mu held.
func (t *tables) magneticStart(j *jobRecord, name string, now int64) error {
	r := t.resvs[name]
	switch {
	case j.descStr(descReservation) != "":
		return fmt.Errorf("job names reservation %s, not %s", j.descStr(descReservation), name)
	case r == nil || !r.has(wire.ResvMagnetic):
		return fmt.Errorf("reservation %s is not a magnetic reservation", name)
	case !r.activeAt(now):
		return fmt.Errorf("reservation %s is not active", name)
	case !resvAdmits(r, j.UserID, j.descStr(descAccount)):
		return fmt.Errorf("reservation %s does not admit the job", name)
	}
	return nil
}
