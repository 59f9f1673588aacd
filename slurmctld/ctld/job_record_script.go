package ctld

import (
	"fmt"
	"unique"

	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Batch scripts and environments live in the store, not in the job records in memory.
//
// Slurm keeps them in StateSaveLocation (hash.N/job.NNNN/script and environment) and reads
// them back only when it launches the job, for `scontrol write batch_script` and for the
// accounting flags job_script/job_env: they are most of a pending job's bytes (an exported
// environment alone is several KiB), and a controller holding 100,000 jobs must not keep them
// in memory. Orbit puts them in the same SQLite file as the job, as records of kind
// "job_script", rather than in files: the script goes into the SAME batch as the job's
// record, so the commit that makes a printed job id durable makes its script durable too (a
// file would need its own fsync before the commit, and a crash between them leaves an orphan
// or a job without a script); purging the job deletes the script in the batch that removes
// the record; and it needs no schema change (the store's kinds are the controller's).
//
// An array shares one script: every task record split off the array's record keeps its
// ScriptID (the array's job id), and the row goes when the last record of the array is
// purged. tables.scriptRefs counts the array records still holding each such row.

// kindScript is the store kind of scriptRecords, keyed by jobKey(ScriptID).
const kindScript = "job_script"

// scriptRecord is what a batch job keeps out of memory (wire.Marshal under kind
// "job_script").
type scriptRecord struct {
	Script      string   `codec:"script"`
	Environment []string `codec:"environment"`
}

// detachScript moves a new batch job's script and environment out of its record, to be
// stored by submitJob beside it, and shares the strings that repeat from job to job
// (internDesc). It returns nil for a job without a script (an interactive allocation keeps
// what it has: nothing reads it back).
func detachScript(j *jobRecord) *scriptRecord {
	d := j.Desc()
	internDesc(d)
	var sc *scriptRecord
	if d.Script != "" {
		sc = &scriptRecord{Script: d.Script, Environment: d.Environment}
		d.Script, d.Environment = "", nil
	}
	j.setDesc(d)
	return sc
}

// hasScript says whether j is a batch job: its script is in the store (ScriptID), or, for a
// record saved before scripts moved there (or an accounting row carrying its script), in
// the record itself.
func (j *jobRecord) hasScript() bool { return j.ScriptID != 0 || j.descStr(descScript) != "" }

// jobScript reads j's script and environment back. A record that still carries them (saved
// by an older Orbit, or an accounting row written with AccountingStoreFlags=job_script or
// job_env) answers from itself: a live batch job's record never does (detachScript). It reads the store, so callers hold no controller lock
// when they can avoid it (the read never waits behind the writer, but it is I/O).
func (c *Controller) jobScript(j *jobRecord) (*scriptRecord, error) {
	if d := j.Desc(); d.Script != "" || len(d.Environment) > 0 || j.ScriptID == 0 {
		return &scriptRecord{Script: d.Script, Environment: d.Environment}, nil
	}
	v, ok, err := c.store.Get(kindScript, jobKey(j.ScriptID))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("job %d: batch script %s missing from %s", j.JobID, jobKey(j.ScriptID), c.store.Path())
	}
	sc := new(scriptRecord)
	if err := wire.Unmarshal(v, sc); err != nil {
		return nil, fmt.Errorf("job %d: batch script %s in %s: %w", j.JobID, jobKey(j.ScriptID), c.store.Path(), err)
	}
	return sc, nil
}

// putScripts adds the scripts of new jobs to b.
func putScripts(b *store.Batch, scripts map[uint32]*scriptRecord) error {
	for id, sc := range scripts {
		v, err := wire.Marshal(sc)
		if err != nil {
			return fmt.Errorf("encode script of job %d: %w", id, err)
		}
		b.Put(kindScript, jobKey(id), v)
	}
	return nil
}

// purgeScripts deletes the script rows that the purge of ids leaves without a record. A
// job's own script goes with it; an array's goes with the last of its records.
func (t *tables) purgeScripts(b *store.Batch, ids []uint32) {
	var gone map[uint32]uint32 // array script id → records of it purged in this batch
	for _, id := range ids {
		j := t.jobs[id]
		if j == nil || j.ScriptID == 0 {
			continue
		}
		if j.ArrayJobID == 0 {
			b.Delete(kindScript, jobKey(j.ScriptID))
			continue
		}
		if gone == nil {
			gone = map[uint32]uint32{}
		}
		gone[j.ScriptID]++
		if gone[j.ScriptID] == t.scriptRefs[j.ScriptID] {
			b.Delete(kindScript, jobKey(j.ScriptID))
		}
	}
}

// countScriptRef keeps scriptRefs as a record is installed (delta +1) or removed (-1):
// only array records share a script row, so only they are counted.
func (t *tables) countScriptRef(j *jobRecord, delta int) {
	if j.ScriptID == 0 || j.ArrayJobID == 0 {
		return
	}
	if delta > 0 {
		if t.scriptRefs == nil {
			t.scriptRefs = map[uint32]uint32{}
		}
		t.scriptRefs[j.ScriptID]++
		return
	}
	if t.scriptRefs[j.ScriptID]--; t.scriptRefs[j.ScriptID] == 0 {
		delete(t.scriptRefs, j.ScriptID)
	}
}

// acctWithScript is the record appended to accounting when j is purged: with its script
// and environment embedded when AccountingStoreFlags asks sacct to keep them (-B,
// --env-vars), since the row in the store goes with the job.
func (c *Controller) acctWithScript(j *jobRecord) *jobRecord {
	if j.ScriptID == 0 || j.descStr(descScript) != "" || !c.acctKeepsScripts() {
		return j
	}
	sc, err := c.jobScript(j)
	if err != nil {
		c.log.Warn("purged job's script not accounted", "job", j.JobID, "err", err)
		return j
	}
	a := j.clone()
	flags := c.acctStoreFlags()
	a.editDesc(func(d *wire.JobDesc) {
		if flags["job_script"] {
			d.Script = sc.Script
		}
		if flags["job_env"] {
			d.Environment = sc.Environment
		}
	})
	return a
}

// acctStoreFlags are AccountingStoreFlags, lower-cased.
func (c *Controller) acctStoreFlags() map[string]bool {
	sf, _ := c.config().Get("AccountingStoreFlags")
	return storeFlags(sf)
}

func (c *Controller) acctKeepsScripts() bool {
	f := c.acctStoreFlags()
	return f["job_script"] || f["job_env"]
}

// internDesc replaces the request's strings that most jobs of a site share (directories,
// submit host and line, names, accounts, output patterns) by one canonical copy: each was
// decoded into a fresh allocation per job, about 300 bytes per pending job for a typical
// sbatch, kept as long as the job.
func internDesc(d *wire.JobDesc) {
	for _, p := range []*string{&d.Name, &d.Partition, &d.Account, &d.QOS, &d.Reservation, &d.WCKey,
		&d.Comment, &d.Constraint, &d.MailUser, &d.StdOut, &d.StdErr, &d.StdIn, &d.WorkDir,
		&d.SubmitDir, &d.SubmitLine, &d.SubmitHost, &d.Command, &d.Dependency, &d.ArraySpec} {
		if *p != "" {
			*p = unique.Make(*p).Value()
		}
	}
}
