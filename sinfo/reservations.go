package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// renderReservations is `sinfo -T` (Slurm's print_sinfo_reservation): one line per
// reservation in a fixed layout that -o, -O, -s and -N do not change. The name column is as
// wide as the longest name, at least 9, but stays 9 under -h (Slurm measures the names only
// for the header), so longer names then push their line to the right. ACTIVE is decided
// against the caller's clock, as Slurm's sinfo does; times print in loc.
func renderReservations(resvs []wire.ResvInfo, noHeader bool, now int64, loc *time.Location) string {
	if len(resvs) == 0 {
		return "No reservations in the system\n"
	}
	width := 9
	if !noHeader {
		for i := range resvs {
			width = max(width, len(resvs[i].Name))
		}
	}
	var b strings.Builder
	line := func(name, state, start, end, duration, nodes string) {
		fmt.Fprintf(&b, "%-*s  %8s  %19s  %19s  %11s  %s\n", width, name, state, start, end, duration, nodes)
	}
	if !noHeader {
		line("RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST")
	}
	for i := range resvs {
		r := &resvs[i]
		state := "INACTIVE"
		if r.StartTime <= now && r.EndTime >= now {
			state = "ACTIVE"
		}
		// Slurm keeps the difference in an unsigned 32-bit count, so a negative one wraps.
		secs := uint32(r.EndTime - r.StartTime)
		duration := "UNLIMITED"
		if secs != wire.Infinite {
			duration = slurmtime.FormatElapsed(int64(secs))
		}
		line(nullStr(r.Name), state, slurmtime.FormatUnix(r.StartTime, loc), slurmtime.FormatUnix(r.EndTime, loc),
			duration, nullStr(r.Nodes))
	}
	return b.String()
}

// nullStr is what C's printf shows for a string that was never set.
func nullStr(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}
