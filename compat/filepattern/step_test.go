package filepattern

import "testing"

var step = Fields{JobID: 669, ArrayTaskID: NoVal, StepID: "0", JobName: "sim", User: "root", FirstNode: "vm"}

func TestSrunExpand(t *testing.T) {
	tests := []struct {
		format string
		want   SrunFile
	}{
		{"", SrunFile{Type: IOAll}},
		{"all", SrunFile{Type: IOAll}},
		{"ALLthings", SrunFile{Type: IOAll}},
		{"-", SrunFile{Type: IOAll}},
		{"none", SrunFile{Type: IOPerTask, Name: "/dev/null"}},
		{"NONE", SrunFile{Type: IOPerTask, Name: "/dev/null"}},
		{"1", SrunFile{Type: IOOne, TaskID: 1, Name: "1"}},
		{"2", SrunFile{Type: IOAll, Name: "2"}}, // not a task of a two-task step: a file name
		{"out-%j.%s", SrunFile{Type: IOAll, Name: "out-669.0"}},
		{"%J-%x", SrunFile{Type: IOAll, Name: "669.0-sim"}},
		{"%5j", SrunFile{Type: IOAll, Name: "00669"}},
		{"d_%%j_%A_%a", SrunFile{Type: IOAll, Name: "d_%j_669_4294967294"}},
		{"esc\\_%t", SrunFile{Type: IOAll, Name: "esc_%t"}},
		{"o-%t", SrunFile{Type: IOPerTask, Name: "o-%t"}},
		{"o-%3t", SrunFile{Type: IOPerTask, Name: "o-%3t"}},
		{"o-%05t", SrunFile{Type: IOPerTask, Name: "o-%5t"}},
		{"o-%%t", SrunFile{Type: IOPerTask, Name: "o-%%t"}},
		{"o-%%5t", SrunFile{Type: IOPerTask, Name: "o-%%5t"}},
		{"x%", SrunFile{Type: IOAll, Name: "x%"}},
		{"%10t_%12t", SrunFile{Type: IOPerTask, Name: "%10t_%10t"}},
		{"q_%5%t", SrunFile{Type: IOPerTask, Name: "q_5%t"}},
	}
	for _, tt := range tests {
		if got := SrunExpand(tt.format, step, 2); got != tt.want {
			t.Errorf("SrunExpand(%q) = %+v, want %+v", tt.format, got, tt.want)
		}
	}
}

func TestStepTaskPath(t *testing.T) {
	tests := []struct {
		name string
		task int
		want string
	}{
		{"o-%t", 1, "/w/o-1"},
		{"o-%3t", 1, "/w/o-001"},
		{"t%t%n", 1, "/w/t1%n"},                      // the byte after an expanded field is skipped
		{"%10t_%10t", 1, "/w/0000000001_0000000001"}, // srun caps "%12t" to "%10t" first
		{"u_%5u_%5t_%%5t", 0, "/w/u_%root_00000_%t"},
		{"q_5%t", 1, "/w/q_51"}, // srun turns "q_%5%t" into this
		{"%%%t", 1, "/w/%1"},
		{"%N-%n", 0, "/w/vm-0"},
		{"/abs/%t", 0, "/abs/0"},
		{"1", 0, "/dev/null"},
		{"1", 1, "/w/1"},
		{"esc\\%t", 0, "/wesc%t"}, // slurmstepd joins an escaped name without a '/'
	}
	for _, tt := range tests {
		f := step
		f.TaskID = tt.task
		if got := StepTaskPath(tt.name, "/w", f); got != tt.want {
			t.Errorf("StepTaskPath(%q, task %d) = %q, want %q", tt.name, tt.task, got, tt.want)
		}
	}
}
