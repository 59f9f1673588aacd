package format

import (
	"testing"
	"time"
)

// BenchmarkSqueueDefault renders squeue's default format for 1000 jobs.
func BenchmarkSqueueDefault(b *testing.B) {
	f, _ := SqueueJobs.ParseLong(SqueueDefault)
	now := time.Unix(1_700_000_000, 0)
	rows := make([]*JobRow, 1000)
	for i := range rows {
		rows[i] = &JobRow{JobID: uint32(i + 1), ArrayTaskID: NoVal, Name: "job", UserName: "alice",
			Partition: "debug", State: 1, NodeList: "n[1-4]", NumNodes: 4, Start: now.Add(-time.Hour), Now: now}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = f.Render(rows, false)
	}
}
