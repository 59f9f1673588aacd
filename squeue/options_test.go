package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
)

func TestJobQueue_DefaultSort(t *testing.T) {
	row := func(id uint32, st states.JobState, prio uint32) *format.JobRow {
		return &format.JobRow{JobID: id, ArrayTaskID: format.NoVal, Partition: "debug", State: st, Priority: prio}
	}
	rows := []*format.JobRow{
		row(1, states.JobRunning, 5), row(2, states.JobPending, 0), row(3, states.JobPending, 9),
		row(4, states.JobPending, 0), row(5, states.JobRunning|states.JobCompleting, 1),
	}
	q, err := newJobQueue("")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		q.add(r, func(b []byte) []byte { return fmt.Appendf(b, "%d\n", r.JobID) })
	}
	q.sort()
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	q.writeTo(w)
	w.Flush()
	var got []uint32
	for _, f := range strings.Fields(out.String()) {
		id, _ := strconv.Atoi(f)
		got = append(got, uint32(id))
	}
	// P,t,-p: CG before PD before R (compact names), high priority first, and newest first
	// among pending equals (none has a start time: squeue's first sort reverses them).
	want := []uint32{5, 3, 4, 2, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order = %v, want %v", got, want)
		}
	}
	if _, err := newJobQueue("Z"); err == nil || err.Error() != "Invalid sort specification: Z" {
		t.Errorf("sort Z: %v", err)
	}
}

func FuzzParseJobList(f *testing.F) {
	for _, s := range []string{"1", "1,2", "12_3", "abc", ",,", "1_", "_1", "4294967295"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sels, err := parseJobList(s)
		if err == nil {
			for _, x := range sels {
				if x.id == 0 {
					t.Fatalf("parseJobList(%q) accepted job id 0", s)
				}
			}
		}
	})
}

func FuzzParseSort(f *testing.F) {
	for _, s := range []string{"P,t,-p", "-cluster", "+i", "Z", "--", "cluster,-clusterP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { parseSort(s) })
}

func FuzzParseStepList(f *testing.F) {
	for _, s := range []string{"5.0", "5_2.1", "5", ".", "5.x", "-1.2", "1.2,3.4", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sels, err := parseStepList(s)
		if err == nil {
			for _, x := range sels {
				if x.job.id == 0 {
					t.Fatalf("parseStepList(%q) accepted job id 0", s)
				}
			}
		}
	})
}
