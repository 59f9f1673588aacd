package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// reportSteps prints squeue -s: the steps the filters select, in -S order (default "P,i":
// partition, then job and step id).
func reportSteps(p *params, steps []wire.StepInfo, now time.Time, stdout *bufio.Writer, stderr io.Writer) bool {
	var rows []*format.StepRow
	for i := range steps {
		s := &steps[i]
		if !p.selectsStep(s) {
			continue
		}
		rows = append(rows, stepRow(s, now))
	}
	spec := p.sort
	if !p.sortSet {
		spec = "P,i"
	}
	if err := sortSteps(rows, spec); err != nil {
		stdout.WriteString(p.stepFmt.Header() + "\n")
		stdout.Flush()
		fmt.Fprintf(stderr, "squeue: error: %v\n", err)
		return false
	}
	stdout.WriteString(p.stepFmt.Render(rows, p.noHeader))
	return true
}

// stepRow fills squeue -s's row from the controller's record of one step.
func stepRow(s *wire.StepInfo, now time.Time) *format.StepRow {
	r := &format.StepRow{
		JobID: s.JobID, StepID: s.StepID, HetComponent: format.NoVal,
		ArrayJobID: s.ArrayJobID, ArrayTaskID: s.ArrayTaskID,
		Name: s.Name, Partition: s.Partition, UserName: s.UserName, UserID: s.UserID,
		TimeLimit: s.TimeLimit, Start: unix(s.StartTime), NodeList: s.NodeList,
		NumTasks: s.NumTasks, NumCPUs: s.NumCPUs, CPUFreq: "Unknown",
	}
	if r.ArrayTaskID != format.NoVal && r.ArrayJobID == 0 {
		r.ArrayTaskID = format.NoVal
	}
	if s.StartTime > 0 && now.Unix() > s.StartTime {
		r.RunTimeSecs = now.Unix() - s.StartTime
	}
	return r
}

type stepCmp func(a, b *format.StepRow) int

// stepSortKeys are the -S letters Slurm's sort_step_list knows.
var stepSortKeys = map[byte]stepCmp{
	'A': func(a, b *format.StepRow) int { return cmp.Compare(a.NumTasks, b.NumTasks) },
	'i': func(a, b *format.StepRow) int {
		if c := cmp.Compare(a.JobID, b.JobID); c != 0 {
			return c
		}
		return cmp.Compare(a.StepID, b.StepID)
	},
	'j': func(a, b *format.StepRow) int { return strings.Compare(a.Name, b.Name) },
	'l': func(a, b *format.StepRow) int { return cmp.Compare(a.TimeLimit, b.TimeLimit) },
	'M': func(a, b *format.StepRow) int { return cmp.Compare(a.RunTimeSecs, b.RunTimeSecs) },
	'N': func(a, b *format.StepRow) int { return strings.Compare(a.NodeList, b.NodeList) },
	'P': func(a, b *format.StepRow) int { return strings.Compare(a.Partition, b.Partition) },
	'S': func(a, b *format.StepRow) int { return a.Start.Compare(b.Start) },
	'u': func(a, b *format.StepRow) int { return strings.Compare(a.UserName, b.UserName) },
	'U': func(a, b *format.StepRow) int { return cmp.Compare(a.UserID, b.UserID) },
}

// sortSteps orders step rows by a -S list; letters steps have no key for are ignored, as
// Slurm's step sort ignores them.
func sortSteps(rows []*format.StepRow, spec string) error {
	var keys []stepCmp
	for _, item := range splitList(spec) {
		rev := false
		for len(item) > 0 && (item[0] == '+' || item[0] == '-') {
			rev = item[0] == '-'
			item = item[1:]
		}
		if item == "" {
			continue
		}
		c, ok := stepSortKeys[item[0]]
		if !ok {
			continue
		}
		if rev {
			f := c
			c = func(a, b *format.StepRow) int { return -f(a, b) }
		}
		keys = append(keys, c)
	}
	slices.SortStableFunc(rows, func(a, b *format.StepRow) int {
		for _, k := range keys {
			if c := k(a, b); c != 0 {
				return c
			}
		}
		return 0
	})
	return nil
}
