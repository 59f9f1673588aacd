package filepattern

import (
	"strings"
	"testing"
)

var batchJob = Fields{
	JobID: 128, ArrayTaskID: NoVal, StepID: BatchStep,
	JobName: "sim", User: "alice", FirstNode: "node07",
}

var arrayTask = Fields{
	JobID: 131, ArrayJobID: 128, ArrayTaskID: 3, IsArray: true, StepID: BatchStep,
	JobName: "sim", User: "alice", FirstNode: "node07",
}

func TestExpand_Batch(t *testing.T) {
	tests := []struct {
		pattern string
		f       Fields
		want    string
	}{
		{"slurm-%j.out", batchJob, "slurm-128.out"},
		{"slurm-%A_%a.out", arrayTask, "slurm-128_3.out"},
		{"%A", batchJob, "128"},
		{"%a", batchJob, "4294967294"},
		{"%j.%J.%s", batchJob, "128.128.batch"},
		{"%x-%u-%N-%n-%t", batchJob, "sim-alice-node07-0-0"},
		{"%4j", batchJob, "0128"},
		{"%4a", arrayTask, "0003"},
		{"%12j", batchJob, "0000000128"},
		{"%0j_%1j", batchJob, "128_128"},
		{"%5x|%5u|%5N|%2s", batchJob, "sim|alice|node07|batch"},
		{"%03t", batchJob, "000"},
		{"%%", batchJob, "%"},
		{"%%j", batchJob, "%j"},
		{"%%%j", batchJob, "%128"},
		{"%%%%j", batchJob, "%%j"},
		{"%z %5z %12z", batchJob, "%z 5z 2z"},
		{"%b %r", batchJob, "%b %r"},
		{"p_%", batchJob, "p_%"},
		{"t_%5", batchJob, "t_5"},
		{"q_%5%j", batchJob, "q_5128"},
		{"esc\\_%j", batchJob, "esc_%j"},
		{"dbl\\\\x_%j", batchJob, "dbl\\x_%j"},
		{"", batchJob, ""},
		{"%J", Fields{JobID: 7, StepID: "2"}, "7.2"},
		{"%3s", Fields{JobID: 7, StepID: "2"}, "002"},
	}
	for _, tt := range tests {
		if got := Expand(tt.pattern, tt.f); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func TestPath(t *testing.T) {
	tests := []struct{ pattern, cwd, want string }{
		{"out-%j", "/home/alice", "/home/alice/out-128"},
		{"out-%j", "/home/alice/", "/home/alice/out-128"},
		{"/tmp/out-%j", "/home/alice", "/tmp/out-128"},
		{"esc\\_%j", "/home/alice", "/home/alice/esc_%j"},
	}
	for _, tt := range tests {
		if got := Path(tt.pattern, tt.cwd, batchJob); got != tt.want {
			t.Errorf("Path(%q, %q) = %q, want %q", tt.pattern, tt.cwd, got, tt.want)
		}
	}
}

func TestShowPath(t *testing.T) {
	tests := []struct {
		pattern string
		f       Fields
		want    string
	}{
		{"o_%j_%J_%s_%A_%a_%x_%u_%N", batchJob, "/w/o_128_%J_%s_128_4294967294_sim_alice_%N"},
		{"arr_%A_%a_%4a", arrayTask, "/w/arr_128_3_%4a"},
		{"%%j", batchJob, "/w/%128"},
		{"/abs/%j", batchJob, "/abs/128"},
		{"esc\\_%j", batchJob, "/w/esc\\_128"},
	}
	for _, tt := range tests {
		if got := ShowPath(tt.pattern, "/w", tt.f); got != tt.want {
			t.Errorf("ShowPath(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func TestShowDefaultStdout(t *testing.T) {
	if got := ShowDefaultStdout("/w", batchJob); got != "/w/slurm-128.out" {
		t.Errorf("non-array: %q", got)
	}
	if got := ShowDefaultStdout("/w", arrayTask); got != "/w/slurm-128_3.out" {
		t.Errorf("array task: %q", got)
	}
}

func FuzzExpandPattern(f *testing.F) {
	for _, s := range []string{"slurm-%j.out", "%A_%a", "%5j%12a%%", "%", "%5", "%%%", "a\\b",
		"\\", "%99999999999999999999999j", "%x%u%N%n%t%s%J", "%0", "%-5j", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Expand(s, arrayTask)
		_ = ShowPath(s, "/w", arrayTask)
		_ = Path(s, "/w", batchJob)
		sf := SrunExpand(s, step, 4)
		_ = StepTaskPath(sf.Name, "/w", step)
		_ = StepTaskPath(s, "/w", step)
		// Without '%' or '\' there is nothing to expand.
		if !strings.ContainsAny(s, "%\\") && got != s {
			t.Fatalf("Expand(%q) = %q, want it unchanged", s, got)
		}
	})
}

func BenchmarkExpand(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = Expand("slurm-%A_%4a-%x.out", arrayTask)
	}
}
