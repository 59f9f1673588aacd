package main

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// csvHeader names the per-job record's columns. Times are seconds from the trace's origin;
// estimate is the time limit the scheduler saw, in seconds, -1 for none.
var csvHeader = []string{"id", "submit", "start", "end", "wait", "run", "nodes", "estimate", "bounded_slowdown"}

// WriteCSV writes one record per job, in start order.
func WriteCSV(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range recs {
		est := int64(-1)
		if r.Job.Limit != scheduler.Infinite {
			est = int64(r.Job.Limit) * 60
		}
		wait, run := r.Start-r.Job.Submit, r.End-r.Start
		if err := cw.Write([]string{
			r.Job.ID, i64(r.Job.Submit), i64(r.Start), i64(r.End), i64(wait), i64(run),
			strconv.FormatUint(uint64(r.Nodes), 10), i64(est),
			strconv.FormatFloat(BoundedSlowdown(wait, run), 'f', 4, 64),
		}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
