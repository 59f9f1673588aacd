package format

import (
	"testing"
	"time"
)

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{
		"%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R", "%all", "%", "%%", "%5", "%.", "%.99999999999j",
		"abc%i|%%|%5j%-5u%.3t%q%", SqueueDefault, SqueueLong, "jobid:-5x,name:.3", "jobid:x,name: 7,state:.",
		"numtaskzz:3", ",,,", ":", "name:99999999999999999999", "\xff%\xfe", "name:+4,state:.-4",
	} {
		f.Add(s)
	}
	row := &JobRow{JobID: 7, ArrayTaskID: NoVal, Name: "job", State: 0, Now: time.Unix(1e9, 0)}
	f.Fuzz(func(t *testing.T, spec string) {
		for _, parse := range []func(string) (*Format[*JobRow], []string){SqueueJobs.Parse, SqueueJobs.ParseLong} {
			fm, _ := parse(spec)
			for _, it := range fm.Items {
				if it.Width > MaxWidth || it.Width < -MaxWidth {
					t.Fatalf("%q: width %d escapes the cap", spec, it.Width)
				}
			}
			_ = fm.Header()
			_ = fm.Row(row)
		}
	})
}
