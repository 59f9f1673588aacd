package main

// Job is one job of a workload as both readers produce it: when it was submitted, how long
// it really ran, what it asked for. Times are seconds from the trace's origin (SWF's submit
// time 0, or the first submit of a sacct dump).
type Job struct {
	// ID is the trace's job id as written (SWF job number, sacct JobID).
	ID     string
	Submit int64
	// Runtime is how long the job ran in the trace, in seconds.
	Runtime int64
	// Requested is the user's time limit in seconds (SWF requested time, sacct Timelimit);
	// -1 when the trace does not know it or the job had none.
	Requested int64
	// Procs is the processors asked for (SWF requested processors, else allocated ones;
	// sacct NCPUS or AllocCPUS); Nodes the nodes asked for when the trace says (sacct
	// NNodes), else 0 and derived from Procs by the cluster's CPUs per node.
	Procs int64
	Nodes int64
	User  string
	// Partition is the trace's partition name; "" for the default partition.
	Partition string
	// Line is where the job was read, for messages.
	Line int
}

// Trace is a workload read from one file, with what the reader left out and why.
type Trace struct {
	Jobs []Job
	// Skipped counts the records left out, by reason (printed to stderr by main).
	Skipped map[string]int
	// MaxNodes is the SWF header's MaxNodes, the size of the traced machine ("" if unknown).
	MaxNodes string
}

func (t *Trace) skip(why string) {
	if t.Skipped == nil {
		t.Skipped = map[string]int{}
	}
	t.Skipped[why]++
}
