package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestRender_RPCLines pins the per-RPC and per-user layout Slurm's sdiag prints
// ("\t%-40s(%5u) count:%-6u ave_time:%-6u total_time:%"PRIu64).
func TestRender_RPCLines(t *testing.T) {
	r := &wire.StatsReply{ReqTime: 1000, DataSince: 100, SchedCycleCount: 2, SchedCycleSum: 30,
		RPCsByType: []wire.RPCTypeStat{{Name: "REQUEST_JOB_INFO", ID: 2003, Count: 15, Time: 5897}},
		RPCsByUser: []wire.RPCUserStat{{UID: 0, Count: 141, Time: 126742}, {UID: 4242, Count: 1, Time: 7}}}
	out := render(r, func(uid uint32) string {
		if uid == 0 {
			return "root"
		}
		return ""
	})
	for _, want := range []string{
		"\tREQUEST_JOB_INFO                        ( 2003) count:15     ave_time:393    total_time:5897\n",
		"\troot            (       0) count:141    ave_time:898    total_time:126742\n",
		"\t4242            (    4242) count:1      ave_time:7      total_time:7\n",
		"\tMean cycle:   15\n",
		"\tCycles per minute: 0\n", // 900 s of statistics, 2 cycles
		"\tLast cycle when: N/A\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestSortRPCs follows Slurm's exchange sorts.
func TestSortRPCs(t *testing.T) {
	mk := func() *wire.StatsReply {
		return &wire.StatsReply{RPCsByType: []wire.RPCTypeStat{
			{Name: "A", ID: 3, Count: 1, Time: 100}, {Name: "B", ID: 1, Count: 5, Time: 10}, {Name: "C", ID: 2, Count: 2, Time: 50},
		}}
	}
	for _, tc := range []struct {
		by   sortBy
		want string
	}{{byCount, "BCA"}, {byID, "BCA"}, {byTime, "ACB"}, {byAveTime, "ACB"}} {
		r := mk()
		sortRPCs(r, tc.by)
		var got string
		for _, s := range r.RPCsByType {
			got += s.Name
		}
		if got != tc.want {
			t.Errorf("sort %d: %s, want %s", tc.by, got, tc.want)
		}
	}
}

// TestParseArgs covers sdiag's informational options and refusals.
func TestParseArgs(t *testing.T) {
	var stderr bytes.Buffer
	if o, code := parseArgs([]string{"sdiag", "-r", "-T"}, &stderr); code != -1 || !o.reset || o.sort != byAveTime {
		t.Errorf("-r -T: %+v %d", o, code)
	}
	// As the reference without slurmdbd (accounting_storage/none) answers.
	if _, code := parseArgs([]string{"sdiag", "-M", "other"}, &stderr); code != 1 || stderr.String() !=
		"sdiag: error: Problem talking to database\n"+
			"sdiag: error: 'other' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters.\n" {
		t.Errorf("-M: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	t.Setenv("SLURM_CLUSTERS", "ALL")
	if _, code := parseArgs([]string{"sdiag", "--usage"}, &stderr); code != 1 || stderr.String() !=
		"sdiag: error: Problem talking to database\n"+
			"sdiag: error: No clusters can be reached now. Contact your admin to resolve the problem.\n" {
		t.Errorf("SLURM_CLUSTERS=ALL: exit %d, stderr %q", code, stderr.String())
	}
	os.Unsetenv("SLURM_CLUSTERS")
	stderr.Reset()
	var out bytes.Buffer
	if code := run([]string{"sdiag", "--usage"}, &out, &stderr); code != 0 || out.String() != usageText {
		t.Errorf("--usage: %d %q", code, out.String())
	}
}
