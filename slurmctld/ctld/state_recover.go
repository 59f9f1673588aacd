package ctld

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// recover rebuilds memory from the store at start.
//
// Jobs come back as they were saved. Running jobs stay RUNNING: their nodes still run them
// (slurmstepd outlives everything) and report the end with MsgBatchJobComplete, retrying until
// the controller answers. When a node registers, its RunningJobs reconcile the rest
// (node_registration.go). Nodes keep their saved state, address and reasons, and are given a
// fresh SlurmdTimeout to answer the health pings before they are declared DOWN. Pending
// reasons are recomputed by the first scheduler pass. A running batch job's launch is sent
// again (controller.go's relaunchRecovered), since the crash may have come between its
// durable start and the launch reaching the node; slurmd starts a job at most once, so the
// resend never runs it twice (slurmd/node/launch.go).
func (c *Controller) recover() error {
	t := c.t
	next, err := c.store.Counter(counterNextJob)
	if err != nil {
		return err
	}
	t.nextJobID = max(uint32(next), c.config().FirstJobId, 1)
	err = c.store.Load(kindJob, func(key string, v []byte) error {
		j, err := decodeJob(v)
		if err != nil {
			return fmt.Errorf("job record %s in %s: %w", key, c.store.Path(), err)
		}
		if j.ScriptID != 0 {
			j.editDesc(internDesc) // as at submit (job_record_script.go)
		}
		t.installJob(j)
		return nil
	})
	if err != nil {
		return err
	}
	now := c.now().Unix()
	err = c.store.Load(kindNode, func(key string, v []byte) error {
		r := new(nodeRecord)
		if err := wire.Unmarshal(v, r); err != nil {
			return fmt.Errorf("node record %s in %s: %w", key, c.store.Path(), err)
		}
		n := t.nodes[r.Name]
		if n == nil {
			c.log.Warn("saved node is no longer in the configuration; dropped", "node", r.Name)
			return nil
		}
		n.rec = *r
		n.lastContact = now
		return nil
	})
	if err != nil {
		return err
	}
	if err := c.recoverParts(); err != nil { // partition_update.go
		return err
	}
	if err := c.recoverResvs(); err != nil { // resv_record.go
		return err
	}
	// Jobs were booked on their nodes before their partitions' overrides came back: book
	// them again under the partitions they run in (whether they share CPUs follows from
	// it; select_share.go), in job id order so that the rows come out the same each time.
	ids := t.sortedJobIDs()
	for _, id := range ids {
		t.release(t.jobs[id])
	}
	for _, id := range ids {
		t.hold(t.jobs[id])
	}
	for _, n := range t.nodes {
		n.lastContact = now
	}
	c.log.Info("recovered state", "jobs", len(t.jobs), "next_job_id", t.nextJobID)
	return nil
}

// clearState removes every saved job and node state (slurmctld -c), in one batch.
func (c *Controller) clearState() error {
	b := new(store.Batch)
	for _, kind := range []string{kindJob, kindScript, kindNode, kindPart, kindResv} {
		err := c.store.Load(kind, func(key string, _ []byte) error {
			b.Delete(kind, key)
			return nil
		})
		if err != nil {
			return err
		}
	}
	b.SetCounter(counterNextJob, 0)
	b.SetCounter(counterResvSuffix, 0)
	c.log.Info("clearing saved state (-c)", "records", b.Len()-1)
	return c.store.Commit(c.ctx, b)
}

// jobsOnNode returns the jobs holding node, in id order.
func (t *tables) jobsOnNode(node string) []*jobRecord {
	// Every registration and health check asks, for a node that usually holds nothing: its
	// count (hold, release) answers without a pass over the queue, and a pass collects the
	// few jobs holding it before sorting them, not the whole queue's ids.
	if n := t.nodes[node]; n != nil && n.jobs == 0 {
		return nil
	}
	var out []*jobRecord
	for _, j := range t.jobs {
		if j.holdsNodes() && slices.Contains(j.Nodes, node) {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b *jobRecord) int { return cmp.Compare(a.JobID, b.JobID) })
	return out
}
