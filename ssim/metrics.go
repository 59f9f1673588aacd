package main

import (
	"fmt"
	"io"
)

// Tau is the bounded-slowdown threshold in seconds: jobs shorter than this count as this
// long, so a 1-second job that waited a minute does not weigh 60 (the literature's τ = 10 s).
const Tau = 10

// Metrics are a run's summary figures.
type Metrics struct {
	Jobs int
	// Utilization is the node-seconds jobs held divided by the node-seconds the cluster
	// offered over the makespan window: sum(nodes × run) / (usable nodes × makespan).
	Utilization float64
	// MeanWait is the mean of start − submit, seconds.
	MeanWait float64
	// MeanBoundedSlowdown is the mean of max((wait + run) / max(run, Tau), 1).
	MeanBoundedSlowdown float64
	// Makespan is the window from the first submit to the last end, seconds.
	Makespan int64
}

// BoundedSlowdown is one job's max((wait + run) / max(run, Tau), 1).
func BoundedSlowdown(wait, run int64) float64 {
	return max(float64(wait+run)/float64(max(run, Tau)), 1)
}

// Compute summarizes records on a cluster of nodes usable nodes. Makespan runs from the
// first submit to the last end (not from the first start: a trace that begins with a queue
// has that waiting in its window).
func Compute(recs []Record, nodes int) Metrics {
	m := Metrics{Jobs: len(recs)}
	if len(recs) == 0 {
		return m
	}
	first, last := recs[0].Job.Submit, recs[0].End
	var nodeSecs, wait, bsld float64
	for _, r := range recs {
		first, last = min(first, r.Job.Submit), max(last, r.End)
		run := r.End - r.Start
		w := r.Start - r.Job.Submit
		nodeSecs += float64(r.Nodes) * float64(run)
		wait += float64(w)
		bsld += BoundedSlowdown(w, run)
	}
	n := float64(len(recs))
	m.MeanWait, m.MeanBoundedSlowdown = wait/n, bsld/n
	m.Makespan = last - first
	if m.Makespan > 0 && nodes > 0 {
		m.Utilization = nodeSecs / (float64(nodes) * float64(m.Makespan))
	}
	return m
}

// Print writes the summary lines ssim prints.
func (m Metrics) Print(w io.Writer) {
	fmt.Fprintf(w, "jobs: %d\n", m.Jobs)
	fmt.Fprintf(w, "utilization: %.4f\n", m.Utilization)
	fmt.Fprintf(w, "mean_wait_s: %.1f\n", m.MeanWait)
	fmt.Fprintf(w, "mean_bounded_slowdown: %.2f\n", m.MeanBoundedSlowdown)
	fmt.Fprintf(w, "makespan_s: %d\n", m.Makespan)
}
