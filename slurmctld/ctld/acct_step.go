package ctld

import (
	"context"
	"fmt"
	"time"

	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Step accounting. The embedded accounting (conf.Config.AccountingStorageType) keeps every
// srun step as two append-only rows in the store's accounting table: one when the step is
// created (start, nodes, tasks, CPUs) and one when srun reports its end (end, exit status).
// sacct's query (acct_query.go) merges them; a step with a start row and no end row is
// RUNNING while its job runs and ends with the job otherwise, as slurmdbd shows a step whose
// completion never arrived. The batch step is not recorded separately: the job record's
// start, end, batch host and exit status are the batch script's.

// Accounting row kinds beside kindJob (purged job records, state_apply.go).
const (
	kindStepStart = "step_start"
	kindStepEnd   = "step_end"
)

// acctStepRow is the value of a step row; the end row fills only End and ExitCode.
type acctStepRow struct {
	JobID    uint32 `codec:"job_id"`
	StepID   uint32 `codec:"step_id"`
	Name     string `codec:"name"`
	Start    int64  `codec:"start"`
	End      int64  `codec:"end"`
	ExitCode uint32 `codec:"exit_code"`
	NodeList string `codec:"node_list"`
	NNodes   uint32 `codec:"nnodes"`
	NTasks   uint32 `codec:"ntasks"`
	CPUs     uint32 `codec:"cpus"`
}

func stepKey(job, step uint32) string { return fmt.Sprintf("%010d.%010d", job, step) }

// acctStepStart records a step the controller just created. It does not wait for the
// commit: the row only has to be durable before the step's end row, which follows it in the
// same ordered queue.
func (c *Controller) acctStepStart(rep *wire.StepCreateReply, name string) {
	if name == "" {
		name = rep.JobName
	}
	row := acctStepRow{JobID: rep.JobID, StepID: rep.StepID, Name: name, Start: c.now().Unix(),
		NodeList: rep.NodeList, NNodes: uint32(len(rep.Nodes)), NTasks: rep.NumTasks}
	for _, n := range rep.CPUsOnNode {
		row.CPUs += n
	}
	if _, err := c.appendAcct(kindStepStart, row); err != nil {
		c.log.Warn("step start not accounted", "job", rep.JobID, "step", rep.StepID, "err", err)
	}
}

// acctStepEnd records a step's end (srun's MsgStepComplete) and waits until it is durable,
// so a sacct run after srun returns sees it.
func (c *Controller) acctStepEnd(ctx context.Context, r *wire.StepComplete) {
	row := acctStepRow{JobID: r.JobID, StepID: r.StepID, End: c.now().Unix(), ExitCode: r.ExitCode}
	p, err := c.appendAcct(kindStepEnd, row)
	if err == nil {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = p.Wait(wctx)
		cancel()
	}
	if err != nil {
		c.log.Warn("step end not accounted", "job", r.JobID, "step", r.StepID, "err", err)
	}
}

func (c *Controller) appendAcct(kind string, row acctStepRow) (*store.Pending, error) {
	v, err := wire.Marshal(&row)
	if err != nil {
		return nil, err
	}
	b := new(store.Batch)
	t := row.Start
	if kind == kindStepEnd {
		t = row.End
	}
	b.AppendAccounting(kind, stepKey(row.JobID, row.StepID), t, v)
	return c.store.Enqueue(c.ctx, b)
}
