package main

import (
	"bufio"
	"bytes"
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

// testResvs are the reservations the reference listed below, as the controller sends them
// (in creation order).
func testResvs() []wire.ResvInfo {
	mk := func(name, start, end, nodes string) wire.ResvInfo {
		return wire.ResvInfo{Name: name, StartTime: resvAt(start), EndTime: resvAt(end), Nodes: nodes, Watts: wire.NoVal}
	}
	return []wire.ResvInfo{
		mk("hA1", "2026-11-29T01:21:54", "2026-11-29T02:21:54", "n[1-2]"),
		mk("hA2", "2026-12-06T01:22:02", "2026-12-06T03:22:02", "n[1-3]"),
		mk("hA_a_rather_long_name_here", "2026-12-04T01:22:02", "2026-12-04T01:32:02", "n4"),
		mk("hA11", "2026-12-20T01:29:21", "2026-12-20T01:59:21", "n1"),
		mk("hA12", "2026-12-21T01:29:21", "2026-12-21T01:59:21", "n4"),
		mk("hA13", "2026-12-22T01:29:24", "2026-12-22T01:59:24", "n4"),
	}
}

// Recorded from the reference: sinfo -T and sinfo -T -h at 2026-11-29T01:29:26 UTC (under
// -h the name column stays 9 wide), and a few minutes earlier sinfo -T with shorter names, a
// year-long reservation and one without nodes. -o, -s and -N -l changed nothing there (-l
// adds the date line main prints); "none" is what Orbit printed before and Slurm prints with
// no reservation.
func TestRenderReservations(t *testing.T) {
	now := resvAt("2026-11-29T01:29:26")
	short := []wire.ResvInfo{
		{Name: "hA1", StartTime: resvAt("2026-11-29T01:21:54"), EndTime: resvAt("2026-11-29T02:21:54"), Nodes: "n[1-2]"},
		{Name: "hA2", StartTime: resvAt("2026-11-30T01:21:54"), EndTime: resvAt("2026-12-01T03:24:54"), Nodes: "n3"},
		{Name: "hA5", StartTime: resvAt("2026-12-01T01:21:58"), EndTime: resvAt("2027-12-01T01:21:58"), Nodes: "n[1-4]"},
	}
	withEmpty := []wire.ResvInfo{
		short[0],
		{Name: "hA2", StartTime: resvAt("2026-12-06T01:22:02"), EndTime: resvAt("2026-12-08T01:22:02"), Nodes: "n3"},
		short[2], testResvs()[2],
		{Name: "hA8", StartTime: resvAt("2026-12-09T01:22:09"), EndTime: resvAt("2026-12-09T01:32:09")},
	}
	for _, tt := range []struct {
		name     string
		resvs    []wire.ResvInfo
		noHeader bool
		want     string
	}{
		{"-T", testResvs(), false, `RESV_NAME                      STATE           START_TIME             END_TIME     DURATION  NODELIST
hA1                           ACTIVE  2026-11-29T01:21:54  2026-11-29T02:21:54     01:00:00  n[1-2]
hA2                         INACTIVE  2026-12-06T01:22:02  2026-12-06T03:22:02     02:00:00  n[1-3]
hA_a_rather_long_name_here  INACTIVE  2026-12-04T01:22:02  2026-12-04T01:32:02     00:10:00  n4
hA11                        INACTIVE  2026-12-20T01:29:21  2026-12-20T01:59:21     00:30:00  n1
hA12                        INACTIVE  2026-12-21T01:29:21  2026-12-21T01:59:21     00:30:00  n4
hA13                        INACTIVE  2026-12-22T01:29:24  2026-12-22T01:59:24     00:30:00  n4
`},
		{"-T -h", testResvs(), true, `hA1          ACTIVE  2026-11-29T01:21:54  2026-11-29T02:21:54     01:00:00  n[1-2]
hA2        INACTIVE  2026-12-06T01:22:02  2026-12-06T03:22:02     02:00:00  n[1-3]
hA_a_rather_long_name_here  INACTIVE  2026-12-04T01:22:02  2026-12-04T01:32:02     00:10:00  n4
hA11       INACTIVE  2026-12-20T01:29:21  2026-12-20T01:59:21     00:30:00  n1
hA12       INACTIVE  2026-12-21T01:29:21  2026-12-21T01:59:21     00:30:00  n4
hA13       INACTIVE  2026-12-22T01:29:24  2026-12-22T01:59:24     00:30:00  n4
`},
		{"-T short names", short, false, `RESV_NAME     STATE           START_TIME             END_TIME     DURATION  NODELIST
hA1          ACTIVE  2026-11-29T01:21:54  2026-11-29T02:21:54     01:00:00  n[1-2]
hA2        INACTIVE  2026-11-30T01:21:54  2026-12-01T03:24:54   1-02:03:00  n3
hA5        INACTIVE  2026-12-01T01:21:58  2027-12-01T01:21:58  365-00:00:00  n[1-4]
`},
		{"-T no nodes", withEmpty, false, `RESV_NAME                      STATE           START_TIME             END_TIME     DURATION  NODELIST
hA1                           ACTIVE  2026-11-29T01:21:54  2026-11-29T02:21:54     01:00:00  n[1-2]
hA2                         INACTIVE  2026-12-06T01:22:02  2026-12-08T01:22:02   2-00:00:00  n3
hA5                         INACTIVE  2026-12-01T01:21:58  2027-12-01T01:21:58  365-00:00:00  n[1-4]
hA_a_rather_long_name_here  INACTIVE  2026-12-04T01:22:02  2026-12-04T01:32:02     00:10:00  n4
hA8                         INACTIVE  2026-12-09T01:22:09  2026-12-09T01:32:09     00:10:00  (null)
`},
		{"-T none", nil, false, "No reservations in the system\n"},
		{"-T -h none", nil, true, "No reservations in the system\n"},
	} {
		if got := renderReservations(tt.resvs, tt.noHeader, now, time.UTC); got != tt.want {
			t.Errorf("sinfo %s:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

// Recorded: sinfo --json -T and sinfo -T --json both print the JSON dump, not the list.
func TestParseArgs_ReservationsAndJSON(t *testing.T) {
	env := func(string) (string, bool) { return "", false }
	for _, args := range [][]string{{"sinfo", "--json", "-T"}, {"sinfo", "-T", "--json"}, {"sinfo", "-T", "--yaml"}} {
		var out, errOut bytes.Buffer
		p, code := parseArgs(args, env, bufio.NewWriter(&out), &errOut)
		if code >= 0 || p.action != actJSON {
			t.Errorf("%q: exit %d, action %v; want the JSON dump", args, code, p.action)
		}
	}
	p, _ := parseArgs([]string{"sinfo", "-T", "-h"}, env, bufio.NewWriter(new(bytes.Buffer)), new(bytes.Buffer))
	if p == nil || p.action != actReservations || !p.noHeader {
		t.Errorf("sinfo -T -h: %+v", p)
	}
}
