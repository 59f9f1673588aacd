package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// showReservation is `scontrol show reservation [NAME]` (Slurm's scontrol_print_res).
func (c *cli) showReservation(_ string, val *string, _ []string) {
	var rep wire.ResvInfoReply
	if e := c.call(wire.MsgResvInfo, &wire.ResvInfoRequest{}, &rep); e != nil {
		c.perror("slurm_load_reservations error", e)
		return
	}
	if c.quiet == -1 {
		// Slurm shows when its reservation table last changed; Orbit's answer carries the
		// time it was made.
		c.printf("last_update_time=%s, records=%d\n", c.timeStr(rep.Now), len(rep.Reservations))
	}
	now := time.Now().Unix()
	printed := 0
	for i := range rep.Reservations {
		r := &rep.Reservations[i]
		if val != nil && r.Name != *val {
			continue
		}
		c.stdout.WriteString(sprintResv(r, c.oneLiner, now, time.Local))
		printed++
		if val != nil {
			break
		}
	}
	switch {
	case printed > 0:
	case val != nil:
		c.exitCode = 1
		if c.quiet != 1 {
			c.printf("Reservation %s not found\n", *val)
		}
	case c.quiet != 1:
		c.printf("No reservations in the system\n")
	}
}

// sprintResv renders one reservation as Slurm's slurm_sprint_reservation_info does. Like
// Slurm, it decides ACTIVE against the caller's clock (now), not the controller's; times
// print in loc. Orbit keeps no per-node core lists, so the NodeName=/CoreIDs= lines of a
// CoreCnt reservation never appear.
func sprintResv(r *wire.ResvInfo, oneLiner bool, now int64, loc *time.Location) string {
	rec := newRecord(oneLiner)
	duration := "N/A"
	if r.EndTime >= r.StartTime {
		duration = secsToTimeStr(uint32(r.EndTime - r.StartTime))
	}
	rec.f("ReservationName=%s StartTime=%s EndTime=%s Duration=%s", nullStr(r.Name),
		slurmtime.FormatUnix(r.StartTime, loc), slurmtime.FormatUnix(r.EndTime, loc), duration)
	rec.nl()
	nodeCnt := r.NodeCnt
	if nodeCnt == wire.NoVal {
		nodeCnt = 0
	}
	rec.f("Nodes=%s NodeCnt=%d CoreCnt=%d Features=%s PartitionName=%s Flags=%s", nullStr(r.Nodes),
		nodeCnt, r.CoreCnt, nullStr(r.Features), nullStr(r.Partition), resvFlagsString(r.Flags, r.PurgeCompTime))
	rec.nl()
	rec.f("TRES=%s", nullStr(r.TRES))
	rec.nl()
	state := "INACTIVE"
	if r.StartTime <= now && r.EndTime >= now {
		state = "ACTIVE"
	}
	rec.f("Users=%s Groups=%s Accounts=%s Licenses=%s State=%s BurstBuffer=%s Watts=%s",
		nullStr(r.Users), nullStr(r.Groups), nullStr(r.Accounts), nullStr(r.Licenses), state,
		nullStr(r.BurstBuffer), wattsStr(r.Watts))
	rec.nl()
	delay := "(null)"
	if r.MaxStartDelay != 0 {
		delay = secsToTimeStr(r.MaxStartDelay)
	}
	rec.f("MaxStartDelay=%s", delay)
	return rec.end()
}

// secsToTimeStr is Slurm's secs2time_str for an unsigned count of seconds: [D-]HH:MM:SS, or
// UNLIMITED for INFINITE.
func secsToTimeStr(secs uint32) string {
	if secs == wire.Infinite {
		return "UNLIMITED"
	}
	return slurmtime.FormatElapsed(int64(secs))
}

// wattsStr is Slurm's state_control_watts_to_str.
func wattsStr(w uint32) string {
	switch {
	case w == wire.NoVal || w == 0:
		return "n/a"
	case w == wire.Infinite:
		return "INFINITE"
	case w%1000000 == 0:
		return strconv.FormatUint(uint64(w/1000000), 10) + "M"
	case w%1000 == 0:
		return strconv.FormatUint(uint64(w/1000), 10) + "K"
	}
	return strconv.FormatUint(uint64(w), 10)
}

// resvFlagNames are the flags Slurm's reservation_flags_string names, in its order.
var resvFlagNames = []struct {
	bit  uint64
	name string
}{
	{wire.ResvMaint, "MAINT"}, {wire.ResvNoMaint, "NO_MAINT"}, {wire.ResvFlex, "FLEX"},
	{wire.ResvOverlap, "OVERLAP"}, {wire.ResvIgnoreJobs, "IGNORE_JOBS"}, {wire.ResvHourly, "HOURLY"},
	{wire.ResvNoHourly, "NO_HOURLY"}, {wire.ResvDaily, "DAILY"}, {wire.ResvNoDaily, "NO_DAILY"},
	{wire.ResvWeekday, "WEEKDAY"}, {wire.ResvWeekend, "WEEKEND"}, {wire.ResvWeekly, "WEEKLY"},
	{wire.ResvNoWeekly, "NO_WEEKLY"}, {wire.ResvSpecNodes, "SPEC_NODES"}, {wire.ResvAllNodes, "ALL_NODES"},
	{wire.ResvAnyNodes, "ANY_NODES"}, {wire.ResvNoAnyNodes, "NO_ANY_NODES"}, {wire.ResvStatic, "STATIC"},
	{wire.ResvNoStatic, "NO_STATIC"}, {wire.ResvPartNodes, "PART_NODES"}, {wire.ResvNoPartNodes, "NO_PART_NODES"},
	{wire.ResvFirstCores, "FIRST_CORES"}, {wire.ResvTimeFloat, "TIME_FLOAT"}, {wire.ResvReplace, "REPLACE"},
	{wire.ResvReplaceDown, "REPLACE_DOWN"}, {wire.ResvPurgeComp, "PURGE_COMP"},
	{wire.ResvNoHoldJobs, "NO_HOLD_JOBS_AFTER_END"}, {wire.ResvMagnetic, "MAGNETIC"},
	{wire.ResvNoMagnetic, "NO_MAGNETIC"},
}

// resvFlagsString is Slurm's reservation_flags_string: the flags' names, comma-separated,
// PURGE_COMP with its time when it has one.
func resvFlagsString(flags uint64, purgeCompTime uint32) string {
	var names []string
	for _, f := range resvFlagNames {
		if flags&f.bit == 0 {
			continue
		}
		if f.bit == wire.ResvPurgeComp && purgeCompTime != 0 {
			names = append(names, fmt.Sprintf("PURGE_COMP=%s", secsToTimeStr(purgeCompTime)))
			continue
		}
		names = append(names, f.name)
	}
	return strings.Join(names, ",")
}
