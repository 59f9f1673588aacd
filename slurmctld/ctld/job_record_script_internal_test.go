package ctld

import (
	"context"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// submitDirect submits d as root through the real handler (identity already checked).
func submitDirect(t *testing.T, c *Controller, d *wire.JobDesc) uint32 {
	t.Helper()
	rep, err := c.handleSubmitBatchJob(context.Background(), &wire.Request{Identity: &wire.Identity{}, Body: d})
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	return rep.(*wire.SubmitBatchJobReply).JobID
}

func heldScript(body string, env ...string) *wire.JobDesc {
	return &wire.JobDesc{
		Name: "t", Script: "#!/bin/sh\n" + body + "\n", Environment: env, MinNodes: wire.NoVal, NumTasks: wire.NoVal,
		CPUsPerTask: wire.NoVal, NTasksPerNode: wire.NoVal, MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64,
		TimeLimit: wire.NoVal, Priority: wire.NoVal, Requeue: -1, WorkDir: "/tmp", Hold: true,
	}
}

// scriptRows lists the script rows in the store.
func scriptRows(t *testing.T, c *Controller) []string {
	t.Helper()
	var keys []string
	if err := c.store.Load(kindScript, func(k string, _ []byte) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestScript_OutOfMemoryAndPurged: a submitted batch job's record in memory holds neither
// its script nor its environment; they are one row in the store, read back intact, and the
// purge of the job (MinJobAge) deletes the row with the record.
func TestScript_OutOfMemoryAndPurged(t *testing.T) {
	c, _ := StartTestCluster(t, TestConfig{Nodes: 1})
	d := heldScript("echo hi", "A=1", "PATH=/bin")
	id := submitDirect(t, c, d)

	c.mu.RLock()
	j := c.t.jobs[id]
	c.mu.RUnlock()
	if j.Desc().Script != "" || j.Desc().Environment != nil || j.ScriptID != id || j.isInteractive() {
		t.Fatalf("record in memory: script %q env %q ScriptID %d; want them in the store under %d",
			j.Desc().Script, j.Desc().Environment, j.ScriptID, id)
	}
	sc, err := c.jobScript(j)
	if err != nil || sc.Script != d.Script || len(sc.Environment) != 2 || sc.Environment[0] != "A=1" {
		t.Fatalf("jobScript = %+v, %v; want %q %q", sc, err, d.Script, d.Environment)
	}
	if rows := scriptRows(t, c); len(rows) != 1 || rows[0] != jobKey(id) {
		t.Fatalf("script rows %v, want [%s]", rows, jobKey(id))
	}

	ctx := context.Background()
	if err := c.applyWait(ctx, endJob{jobID: id, state: states.JobCancelled, keepReason: true, end: 100}); err != nil {
		t.Fatal(err)
	}
	if rows := scriptRows(t, c); len(rows) != 1 {
		t.Fatalf("a finished job still in memory lost its script: rows %v", rows)
	}
	if err := c.applyWait(ctx, purgeJobs{ids: []uint32{id}}); err != nil {
		t.Fatal(err)
	}
	if rows := scriptRows(t, c); len(rows) != 0 {
		t.Fatalf("script rows after the purge: %v, want none", rows)
	}
}

// TestScript_ArraySharesOneRow: an array's tasks share the array's one script row (not a
// copy per task); it stays while any record of the array does and goes with the last.
func TestScript_ArraySharesOneRow(t *testing.T) {
	c, _ := StartTestCluster(t, TestConfig{Nodes: 1})
	d := heldScript("echo task", "A=1")
	d.ArraySpec = "1-3"
	id := submitDirect(t, c, d)
	ctx := context.Background()

	// Split two pending tasks off (as scancel id_1 would), so the array has three records.
	var recs []uint32
	for _, idx := range []uint32{1, 2} {
		c.mu.RLock()
		next := c.t.nextJobID
		c.mu.RUnlock()
		if err := c.applyWait(ctx, splitPending{arrayID: id, idx: idx, taskJobID: next}); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, next)
	}
	recs = append(recs, id)
	c.mu.RLock()
	for _, r := range recs {
		if j := c.t.jobs[r]; j == nil || j.ScriptID != id || j.Desc().Script != "" {
			t.Errorf("record %d: %+v; want the array's script id %d and no script in memory", r, j, id)
		}
	}
	c.mu.RUnlock()
	if rows := scriptRows(t, c); len(rows) != 1 {
		t.Fatalf("script rows %v, want the array's one", rows)
	}

	for i, r := range recs {
		if err := c.applyWait(ctx, endJob{jobID: r, state: states.JobCancelled, keepReason: true, end: 100}); err != nil {
			t.Fatal(err)
		}
		if err := c.applyWait(ctx, purgeJobs{ids: []uint32{r}}); err != nil {
			t.Fatal(err)
		}
		want := 1
		if i == len(recs)-1 {
			want = 0
		}
		if rows := scriptRows(t, c); len(rows) != want {
			t.Fatalf("after purging %d of %d records: script rows %v, want %d", i+1, len(recs), rows, want)
		}
		if i < len(recs)-1 {
			c.mu.RLock()
			j := c.t.jobs[recs[len(recs)-1]]
			c.mu.RUnlock()
			if sc, err := c.jobScript(j); err != nil || sc.Script != d.Script {
				t.Fatalf("remaining record's script: %+v, %v", sc, err)
			}
		}
	}
	if len(c.t.scriptRefs) != 0 {
		t.Errorf("scriptRefs left: %v", c.t.scriptRefs)
	}
}

// TestScript_OldRecordsKeepTheirScript: a record saved before scripts left memory carries
// its script in Desc; it is still a batch job and launches with that script.
func TestScript_OldRecordsKeepTheirScript(t *testing.T) {
	c, _ := StartTestCluster(t, TestConfig{Nodes: 1})
	j := &jobRecord{JobID: 7, desc: packDesc(&wire.JobDesc{Script: "#!/bin/sh\ntrue\n", Environment: []string{"X=1"}})}
	if j.isInteractive() {
		t.Fatal("an old batch record counts as interactive")
	}
	sc, err := c.jobScript(j)
	if err != nil || sc.Script != j.Desc().Script || len(sc.Environment) != 1 {
		t.Fatalf("jobScript = %+v, %v", sc, err)
	}
	if (&jobRecord{JobID: 8, desc: packDesc(&wire.JobDesc{})}).isInteractive() == false {
		t.Fatal("a record without a script is not interactive")
	}
}

// FuzzScriptRecord: a damaged script row decodes to an error, never a panic.
func FuzzScriptRecord(f *testing.F) {
	good, err := wire.Marshal(&scriptRecord{Script: "#!/bin/sh\ntrue\n", Environment: []string{"A=1", "B="}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte{0xdf, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		sc := new(scriptRecord)
		if err := wire.Unmarshal(b, sc); err == nil {
			if _, err := wire.Marshal(sc); err != nil {
				t.Fatalf("a decoded record does not encode again: %v", err)
			}
		}
	})
}
