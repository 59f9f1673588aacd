package ctld_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestScript_LaunchAfterRestart: scripts and environments live in the store, not in memory,
// so the launch of a job submitted before a controller restart must read them back: the node
// gets the exact script and environment that were submitted, and each task of an array gets
// the array's one script with its own SLURM_ARRAY_TASK_* values.
func TestScript_LaunchAfterRestart(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	single := script("echo single; exit 0")
	single.Environment = []string{"PATH=/usr/bin:/bin", "ORBIT_TEST_VAR=single value", "EMPTY="}
	arr := script("echo task; exit 0")
	arr.ArraySpec = "1-3"
	arr.Environment = []string{"PATH=/bin", "ORBIT_TEST_VAR=array"}
	sid := f.mustSubmit(single)
	aid := f.mustSubmit(arr)

	f.c.Close()
	g := &fixture{t: t, key: f.key, conf: f.conf}
	g.c = ctld.StartTest(t, f.conf)
	n := g.startNodes("n1")
	g.waitState(sid, states.JobComplete)
	g.waitFor("every array task completed", func() bool {
		recs := g.jobs(aid)
		for _, r := range recs {
			if states.JobState(r.State) != states.JobComplete {
				return false
			}
		}
		return len(recs) == 3
	})

	n.mu.Lock()
	sent := slices.Clone(n.sent)
	n.mu.Unlock()
	tasks := map[uint32]bool{}
	for _, m := range sent {
		switch {
		case m.JobID == sid:
			if m.Script != single.Script || !slices.Equal(m.Environment, single.Environment) {
				t.Errorf("job %d launched with script %q env %q, want %q %q", sid, m.Script, m.Environment, single.Script, single.Environment)
			}
		case m.ArrayJobID == aid:
			tasks[m.ArrayTaskID] = true
			if m.Script != arr.Script {
				t.Errorf("task %d_%d launched with script %q, want %q", aid, m.ArrayTaskID, m.Script, arr.Script)
			}
			want := append(slices.Clone(arr.Environment), "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1",
				"SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_STEP=1")
			if !slices.Equal(m.Environment, want) {
				t.Errorf("task %d_%d environment %q, want %q", aid, m.ArrayTaskID, m.Environment, want)
			}
		default:
			t.Errorf("unexpected launch of job %d", m.JobID)
		}
	}
	if len(tasks) != 3 {
		t.Errorf("array tasks launched: %v, want 1, 2 and 3", tasks)
	}
}

// TestScript_AccountingKeepsScriptWithFlags: with AccountingStoreFlags=job_script,job_env
// sacct -B and --env-vars show a job's script and environment, while it is in memory and
// after MinJobAge purged it (when its own row in the store is gone).
func TestScript_AccountingKeepsScriptWithFlags(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, Extra: "AccountingStoreFlags=job_script,job_env\nMinJobAge=2\n"})
	f.startNodes("n1")
	d := script("echo accounted; exit 0")
	d.Environment = []string{"A=1", "B=two"}
	id := f.mustSubmit(d)
	f.waitState(id, states.JobComplete)
	check := func(when string) {
		t.Helper()
		for _, q := range []wire.AcctQueryRequest{{Script: true}, {Env: true}} {
			q.Jobs = []wire.AcctJobSel{{JobID: id, ArrayTask: wire.NoVal, StepID: wire.NoVal}}
			q.Start, q.End = 1, 1<<40
			rep := new(wire.AcctQueryReply)
			if err := f.call(0, wire.MsgAcctQuery, &q, rep); err != nil {
				t.Fatalf("%s: acct query: %v", when, err)
			}
			if len(rep.Jobs) != 1 {
				t.Fatalf("%s: acct query lists %d jobs, want 1", when, len(rep.Jobs))
			}
			if q.Script && rep.Jobs[0].Script != d.Script {
				t.Errorf("%s: sacct -B script %q, want %q", when, rep.Jobs[0].Script, d.Script)
			}
			if q.Env && rep.Jobs[0].Env != strings.Join(d.Environment, "\n")+"\n" {
				t.Errorf("%s: sacct --env-vars %q", when, rep.Jobs[0].Env)
			}
		}
	}
	check("live")
	f.waitFor("the job purged", func() bool {
		rep := new(wire.JobInfoReply)
		if err := f.call(0, wire.MsgJobInfo, &wire.JobInfoRequest{}, rep); err != nil {
			t.Fatal(err)
		}
		return len(rep.Jobs) == 0
	})
	check("purged")
}
