package main

import (
	"bufio"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
)

// defaultSort is squeue's order for jobs: partition, then compact state name, then priority
// from high to low.
const defaultSort = "P,t,-p"

// sortVal is one job's value for one -S key: numbers compared first, then the text.
type sortVal struct {
	n1, n2 int64
	s      string
}

func (a *sortVal) compare(b *sortVal) int {
	if c := cmp.Compare(a.n1, b.n1); c != 0 {
		return c
	}
	if c := cmp.Compare(a.n2, b.n2); c != 0 {
		return c
	}
	return strings.Compare(a.s, b.s)
}

func numVal[T ~int | ~int32 | ~int64 | ~uint16 | ~uint32](n T) sortVal { return sortVal{n1: int64(n)} }

func textVal(s string) sortVal { return sortVal{s: s} }

func timeVal(t time.Time) sortVal { return sortVal{n1: t.Unix(), n2: int64(t.Nanosecond())} }

// startVal is the value of Slurm's start-time order: a pending job's past start counts as
// now, and a job without a start time has n2 -1 (see cmpStart).
func startVal(r *format.JobRow) sortVal {
	if r.Start.IsZero() {
		return sortVal{n2: -1}
	}
	s := r.Start
	if r.State.IsPending() && s.Before(r.Now) {
		s = r.Now
	}
	return timeVal(s)
}

// cmpStart is Slurm's start-time comparison: a job without a start time compares as later
// than anything, itself included (even reversed), so it is not a strict order.
func cmpStart(a, b *sortVal, rev bool) int {
	if a.n2 < 0 {
		return 1
	}
	if b.n2 < 0 {
		return -1
	}
	c := a.compare(b)
	if rev {
		c = -c
	}
	return c
}

// sortKeys maps a -S letter to the value it orders by; Slurm accepts some letters without
// sorting by them (c, f, h, n, O), which map to nil.
var sortKeys = map[byte]func(r *format.JobRow) sortVal{
	'B': func(r *format.JobRow) sortVal { return textVal(r.BatchHost) },
	'C': func(r *format.JobRow) sortVal { return numVal(r.NumCPUs) },
	'D': func(r *format.JobRow) sortVal { return numVal(r.NumNodes) },
	'e': func(r *format.JobRow) sortVal { return timeVal(r.End) },
	'g': func(r *format.JobRow) sortVal { return textVal(r.GroupName) },
	'G': func(r *format.JobRow) sortVal { return numVal(r.GroupID) },
	'i': jobIDVal,
	'j': func(r *format.JobRow) sortVal { return textVal(r.Name) },
	'l': func(r *format.JobRow) sortVal { return numVal(r.TimeLimit) },
	'M': func(r *format.JobRow) sortVal { return numVal(r.TimeUsed()) },
	'p': priorityVal,
	'P': func(r *format.JobRow) sortVal { return textVal(r.Partition) },
	'Q': priorityVal,
	'S': startVal,
	't': func(r *format.JobRow) sortVal { return textVal(r.State.Compact()) },
	'T': func(r *format.JobRow) sortVal { return textVal(r.State.String()) },
	'u': func(r *format.JobRow) sortVal { return textVal(r.UserName) },
	'U': func(r *format.JobRow) sortVal { return numVal(r.UserID) },
	'v': func(r *format.JobRow) sortVal { return textVal(r.Reservation) },
	'V': func(r *format.JobRow) sortVal { return timeVal(r.Submit) },
	'c': nil, 'f': nil, 'h': nil, 'n': nil, 'O': nil,
}

// jobIDVal orders by job id, array tasks of one array by task id.
func jobIDVal(r *format.JobRow) sortVal {
	id := r.JobID
	if r.ArrayTaskID != format.NoVal {
		id = r.ArrayJobID
	}
	return sortVal{n1: int64(id), n2: int64(r.ArrayTaskID)}
}

// sortKey is one parsed -S key.
type sortKey struct {
	val   func(r *format.JobRow) sortVal
	rev   bool
	start bool // Slurm's start-time comparison (cmpStart) rather than compare
}

// parseSort turns a -S list ("P,t,-p", "-cluster") into keys in the order Slurm applies
// them: it reads the list from its end, one letter at a time, so the last key is applied
// first and the first key last.
func parseSort(spec string) ([]sortKey, error) {
	if spec == "" {
		spec = defaultSort
	}
	const cluster = "cluster"
	var keys []sortKey
	for i := len(spec) - 1; i >= 0; i-- {
		ch := spec[i]
		if ch == ',' || ch == '+' || ch == '-' {
			continue
		}
		rev := i > 0 && spec[i-1] == '-'
		if i+1 >= len(cluster) && strings.EqualFold(spec[i+1-len(cluster):i+1], cluster) {
			i -= len(cluster) - 1 // one cluster: nothing to sort by
			continue
		}
		val, ok := sortKeys[ch]
		if !ok {
			return nil, fmt.Errorf("Invalid sort specification: %c", ch)
		}
		if val == nil {
			continue
		}
		keys = append(keys, sortKey{val: val, rev: rev, start: ch == 'S'})
	}
	return keys, nil
}

// jobQueue holds the jobs squeue shows until they are sorted: for each job only its values
// for the sort keys and its line(s), rendered when the job was added. A job's full row is
// filled, rendered and dropped one at a time, so a long queue costs a few dozen bytes of
// sort values a job beside its text, not a row of every field (1.3 kB) a job.
type jobQueue struct {
	keys []sortKey // as parseSort returns them
	jobs []queuedJob
	vals []sortVal // len(keys)+1 per job, from job.vals: the start time, then each key's
	text []byte    // every job's lines, in the order the jobs were added
}

// queuedJob is one job of a jobQueue.
type queuedJob struct {
	id         uint32 // the record's job id, squeue's first (stable) order
	vals       int32  // index of its values in jobQueue.vals
	start, end int32  // its lines: jobQueue.text[start:end]
}

func newJobQueue(spec string) (*jobQueue, error) {
	keys, err := parseSort(spec)
	if err != nil {
		return nil, err
	}
	return &jobQueue{keys: keys}, nil
}

// reserve makes room for n jobs of about lineLen bytes of text each. Room never used costs
// only address space: fresh memory is not touched until it is written.
func (q *jobQueue) reserve(n, lineLen int) {
	q.jobs = slices.Grow(q.jobs, n)
	q.vals = slices.Grow(q.vals, n*(len(q.keys)+1))
	q.text = slices.Grow(q.text, n*lineLen)
}

// add queues job r, whose lines (each ending in a newline) add appends to q.text.
func (q *jobQueue) add(r *format.JobRow, lines func(b []byte) []byte) {
	j := queuedJob{id: r.JobID, vals: int32(len(q.vals)), start: int32(len(q.text))}
	q.vals = append(q.vals, startVal(r))
	for _, k := range q.keys {
		q.vals = append(q.vals, k.val(r))
	}
	q.text = lines(q.text)
	j.end = int32(len(q.text))
	q.jobs = append(q.jobs, j)
}

// sort orders the jobs as Slurm does. The controller lists jobs in job id order; squeue first
// sorts them by start time, latest first, and then applies each key, last key first, with
// glibc's merge sort (msort). Its exact behaviour matters: the start-time comparison is not
// a strict order (a job without a start time is "later" than everything, itself included),
// which reverses the order of such jobs.
func (q *jobQueue) sort() {
	jobs := q.jobs
	slices.SortStableFunc(jobs, func(a, b queuedJob) int { return cmp.Compare(a.id, b.id) })
	tmp := make([]queuedJob, len(jobs))
	msort(jobs, tmp, func(a, b queuedJob) int { return cmpStart(&q.vals[a.vals], &q.vals[b.vals], true) })
	for i, k := range q.keys {
		i := int32(i + 1)
		switch {
		case k.start:
			msort(jobs, tmp, func(a, b queuedJob) int { return cmpStart(&q.vals[a.vals+i], &q.vals[b.vals+i], k.rev) })
		case k.rev:
			msort(jobs, tmp, func(a, b queuedJob) int { return q.vals[b.vals+i].compare(&q.vals[a.vals+i]) })
		default:
			msort(jobs, tmp, func(a, b queuedJob) int { return q.vals[a.vals+i].compare(&q.vals[b.vals+i]) })
		}
	}
}

// writeTo writes every job's lines in the queue's order.
func (q *jobQueue) writeTo(w *bufio.Writer) {
	for _, j := range q.jobs {
		w.Write(q.text[j.start:j.end])
	}
}

// msort is glibc's merge sort (msort_with_tmp): halves of n/2 and n-n/2, and a merge that
// takes from the left run while cmp(left, right) <= 0.
func msort[T any](b, tmp []T, cmpf func(a, b T) int) {
	n := len(b)
	if n <= 1 {
		return
	}
	n1 := n / 2
	b1, b2 := b[:n1], b[n1:]
	msort(b1, tmp, cmpf)
	msort(b2, tmp, cmpf)
	out := tmp[:0]
	for len(b1) > 0 && len(b2) > 0 {
		if cmpf(b1[0], b2[0]) <= 0 {
			out = append(out, b1[0])
			b1 = b1[1:]
		} else {
			out = append(out, b2[0])
			b2 = b2[1:]
		}
	}
	out = append(out, b1...)
	copy(b, out)
}

// priorityVal is Slurm's priority order: the row's partition PriorityTier first (squeue
// --priority's rows; 0 for the others), then the job's priority.
func priorityVal(r *format.JobRow) sortVal {
	return sortVal{n1: int64(r.PartitionTier), n2: int64(r.Priority)}
}
