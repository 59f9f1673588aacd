package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// resvAt is a time of the reference's clock (UTC) as a Unix time.
func resvAt(s string) int64 {
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

// testResvs are reservations the reference showed (scontrol show res), as Orbit's
// controller would send them.
func testResvs() []wire.ResvInfo {
	mk := func(name, start, end, nodes string, nodeCnt, cores uint32, part string, flags uint64) wire.ResvInfo {
		tres := ""
		if cores > 0 {
			tres = "cpu=" + strconv.FormatUint(uint64(cores), 10)
		}
		return wire.ResvInfo{Name: name, StartTime: resvAt(start), EndTime: resvAt(end), Nodes: nodes, NodeCnt: nodeCnt,
			CoreCnt: cores, Partition: part, Flags: flags, TRES: tres, Watts: wire.NoVal}
	}
	hA1 := mk("hA1", "2026-11-29T01:21:54", "2026-11-29T02:21:54", "n[1-2]", 2, 128, "", wire.ResvSpecNodes)
	hA1.Users = "root"
	hA2 := mk("hA2", "2026-12-06T01:22:02", "2026-12-06T03:22:02", "n[1-3]", 3, 192, "debug",
		wire.ResvIgnoreJobs|wire.ResvWeekend|wire.ResvWeekly|wire.ResvSpecNodes|wire.ResvPurgeComp|wire.ResvNoHoldJobs|wire.ResvMagnetic)
	hA2.PurgeCompTime, hA2.Users = 86401, "root,daemon,bin"
	long := mk("hA_a_rather_long_name_here", "2026-12-04T01:22:02", "2026-12-04T01:32:02", "n4", 1, 64, "", wire.ResvSpecNodes)
	long.Users = "root"
	hA11 := mk("hA11", "2026-12-20T01:29:21", "2026-12-20T01:59:21", "n1", 1, 64, "debug",
		wire.ResvOverlap|wire.ResvHourly|wire.ResvWeekend|wire.ResvFirstCores|wire.ResvReplace)
	hA11.Users = "-nobody"
	hA12 := mk("hA12", "2026-12-21T01:29:21", "2026-12-21T01:59:21", "n4", 1, 64, "", wire.ResvOverlap|wire.ResvSpecNodes)
	hA12.Groups = "root"
	hA13 := mk("hA13", "2026-12-22T01:29:24", "2026-12-22T01:59:24", "n4", 1, 64, "",
		wire.ResvOverlap|wire.ResvIgnoreJobs|wire.ResvDaily|wire.ResvSpecNodes)
	hA13.Accounts = "-acct2"
	return []wire.ResvInfo{hA1, hA2, long, hA11, hA12, hA13}
}

// resvTestShowNow is when the reference printed testResvs: hA1 was running.
var resvTestShowNow = resvAt("2026-11-29T01:29:26")

// Recorded: scontrol show res (at resvTestShowNow, in UTC).
const showResvWant = `ReservationName=hA1 StartTime=2026-11-29T01:21:54 EndTime=2026-11-29T02:21:54 Duration=01:00:00
   Nodes=n[1-2] NodeCnt=2 CoreCnt=128 Features=(null) PartitionName=(null) Flags=SPEC_NODES
   TRES=cpu=128
   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=hA2 StartTime=2026-12-06T01:22:02 EndTime=2026-12-06T03:22:02 Duration=02:00:00
   Nodes=n[1-3] NodeCnt=3 CoreCnt=192 Features=(null) PartitionName=debug Flags=IGNORE_JOBS,WEEKEND,WEEKLY,SPEC_NODES,PURGE_COMP=1-00:00:01,NO_HOLD_JOBS_AFTER_END,MAGNETIC
   TRES=cpu=192
   Users=root,daemon,bin Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=hA_a_rather_long_name_here StartTime=2026-12-04T01:22:02 EndTime=2026-12-04T01:32:02 Duration=00:10:00
   Nodes=n4 NodeCnt=1 CoreCnt=64 Features=(null) PartitionName=(null) Flags=SPEC_NODES
   TRES=cpu=64
   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=hA11 StartTime=2026-12-20T01:29:21 EndTime=2026-12-20T01:59:21 Duration=00:30:00
   Nodes=n1 NodeCnt=1 CoreCnt=64 Features=(null) PartitionName=debug Flags=OVERLAP,HOURLY,WEEKEND,FIRST_CORES,REPLACE
   TRES=cpu=64
   Users=-nobody Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=hA12 StartTime=2026-12-21T01:29:21 EndTime=2026-12-21T01:59:21 Duration=00:30:00
   Nodes=n4 NodeCnt=1 CoreCnt=64 Features=(null) PartitionName=(null) Flags=OVERLAP,SPEC_NODES
   TRES=cpu=64
   Users=(null) Groups=root Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=hA13 StartTime=2026-12-22T01:29:24 EndTime=2026-12-22T01:59:24 Duration=00:30:00
   Nodes=n4 NodeCnt=1 CoreCnt=64 Features=(null) PartitionName=(null) Flags=OVERLAP,IGNORE_JOBS,DAILY,SPEC_NODES
   TRES=cpu=64
   Users=(null) Groups=(null) Accounts=-acct2 Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

`

func TestSprintResv_Show(t *testing.T) {
	var b strings.Builder
	for _, r := range testResvs() {
		b.WriteString(sprintResv(&r, false, resvTestShowNow, time.UTC))
	}
	if got := b.String(); got != showResvWant {
		t.Errorf("show res:\n%s\nwant:\n%s", got, showResvWant)
	}
}

// Recorded: scontrol -o show res hA2, and the one-liners of records shown earlier (hA1, hA5
// with an unlimited duration, hA8 a power reservation without nodes, its Watts updated).
func TestSprintResv_OneLiner(t *testing.T) {
	hA1, hA2 := testResvs()[0], testResvs()[1]
	hA5 := wire.ResvInfo{Name: "hA5", StartTime: resvAt("2026-12-01T01:21:58"), EndTime: resvAt("2027-12-01T01:21:58"),
		Nodes: "n[1-4]", NodeCnt: 4, CoreCnt: 256, Partition: "debug", Flags: wire.ResvOverlap | wire.ResvSpecNodes | wire.ResvPartNodes,
		TRES: "cpu=256", Users: "root", Watts: wire.NoVal}
	hA2old := hA2
	hA2old.StartTime, hA2old.EndTime = resvAt("2026-11-30T01:21:54"), resvAt("2026-12-01T03:24:54")
	hA2old.Nodes, hA2old.NodeCnt, hA2old.CoreCnt, hA2old.TRES = "n3", 1, 64, "cpu=64"
	hA2old.Flags = wire.ResvMaint | wire.ResvIgnoreJobs | wire.ResvDaily | wire.ResvSpecNodes | wire.ResvPurgeComp |
		wire.ResvNoHoldJobs | wire.ResvMagnetic
	hA2old.PurgeCompTime, hA2old.Users, hA2old.Accounts, hA2old.MaxStartDelay = 300, "root,nobody", "acct1", 5400
	hA8 := func(w uint32) wire.ResvInfo {
		return wire.ResvInfo{Name: "hA8", StartTime: resvAt("2026-12-09T01:22:09"), EndTime: resvAt("2026-12-09T01:32:09"),
			Flags: wire.ResvAnyNodes, Users: "root", Watts: w}
	}
	for _, tt := range []struct {
		r    wire.ResvInfo
		want string
	}{
		{hA1, "ReservationName=hA1 StartTime=2026-11-29T01:21:54 EndTime=2026-11-29T02:21:54 Duration=01:00:00 Nodes=n[1-2] NodeCnt=2 CoreCnt=128 Features=(null) PartitionName=(null) Flags=SPEC_NODES TRES=cpu=128 Users=root Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n"},
		{hA2, "ReservationName=hA2 StartTime=2026-12-06T01:22:02 EndTime=2026-12-06T03:22:02 Duration=02:00:00 Nodes=n[1-3] NodeCnt=3 CoreCnt=192 Features=(null) PartitionName=debug Flags=IGNORE_JOBS,WEEKEND,WEEKLY,SPEC_NODES,PURGE_COMP=1-00:00:01,NO_HOLD_JOBS_AFTER_END,MAGNETIC TRES=cpu=192 Users=root,daemon,bin Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n"},
		{hA2old, "ReservationName=hA2 StartTime=2026-11-30T01:21:54 EndTime=2026-12-01T03:24:54 Duration=1-02:03:00 Nodes=n3 NodeCnt=1 CoreCnt=64 Features=(null) PartitionName=debug Flags=MAINT,IGNORE_JOBS,DAILY,SPEC_NODES,PURGE_COMP=00:05:00,NO_HOLD_JOBS_AFTER_END,MAGNETIC TRES=cpu=64 Users=root,nobody Groups=(null) Accounts=acct1 Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=01:30:00\n"},
		{hA5, "ReservationName=hA5 StartTime=2026-12-01T01:21:58 EndTime=2027-12-01T01:21:58 Duration=365-00:00:00 Nodes=n[1-4] NodeCnt=4 CoreCnt=256 Features=(null) PartitionName=debug Flags=OVERLAP,SPEC_NODES,PART_NODES TRES=cpu=256 Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n"},
		{hA8(100), "ReservationName=hA8 StartTime=2026-12-09T01:22:09 EndTime=2026-12-09T01:32:09 Duration=00:10:00 Nodes=(null) NodeCnt=0 CoreCnt=0 Features=(null) PartitionName=(null) Flags=ANY_NODES TRES=(null) Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=100 MaxStartDelay=(null)\n"},
		{hA8(2000000), "ReservationName=hA8 StartTime=2026-12-09T01:22:09 EndTime=2026-12-09T01:32:09 Duration=00:10:00 Nodes=(null) NodeCnt=0 CoreCnt=0 Features=(null) PartitionName=(null) Flags=ANY_NODES TRES=(null) Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=2M MaxStartDelay=(null)\n"},
		{hA8(wire.Infinite), "ReservationName=hA8 StartTime=2026-12-09T01:22:09 EndTime=2026-12-09T01:32:09 Duration=00:10:00 Nodes=(null) NodeCnt=0 CoreCnt=0 Features=(null) PartitionName=(null) Flags=ANY_NODES TRES=(null) Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=INFINITE MaxStartDelay=(null)\n"},
		{hA8(1500), "ReservationName=hA8 StartTime=2026-12-09T01:22:09 EndTime=2026-12-09T01:32:09 Duration=00:10:00 Nodes=(null) NodeCnt=0 CoreCnt=0 Features=(null) PartitionName=(null) Flags=ANY_NODES TRES=(null) Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=1500 MaxStartDelay=(null)\n"},
	} {
		if got := sprintResv(&tt.r, true, resvTestShowNow, time.UTC); got != tt.want {
			t.Errorf("show -o res %s:\n got %q\nwant %q", tt.r.Name, got, tt.want)
		}
	}
}

// Not recorded: the edges of Slurm's printers, read from slurm_sprint_reservation_info,
// secs2time_str and state_control_watts_to_str.
func TestSprintResv_Edges(t *testing.T) {
	r := wire.ResvInfo{Name: "x", StartTime: 100, EndTime: 50, NodeCnt: wire.NoVal, Watts: 3000, MaxStartDelay: wire.Infinite}
	got := sprintResv(&r, true, 75, time.UTC)
	for _, want := range []string{" Duration=N/A ", " NodeCnt=0 ", " Watts=3K ", " MaxStartDelay=UNLIMITED\n", " State=INACTIVE ", " Flags= "} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if got := resvFlagsString(wire.ResvNoMaint|wire.ResvAllNodes|wire.ResvPurgeComp|wire.ResvNoMagnetic|wire.ResvSkip, 0); got != "NO_MAINT,ALL_NODES,PURGE_COMP,NO_MAGNETIC" {
		t.Errorf("resvFlagsString = %q", got)
	}
}
