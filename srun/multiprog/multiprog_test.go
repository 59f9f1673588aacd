package multiprog

import (
	"slices"
	"testing"
)

// The configuration and the answers are the reference's (srun -n5 -l --multi-prog on Slurm
// 22.05 printed these commands' output).
const conf = "# comment\n0      echo zero %t %o\n1-2    echo range %t %o\n*      echo rest  %t %o 'quoted arg'\n"

func TestTaskArgv_Reference(t *testing.T) {
	want := map[int][]string{
		0: {"echo", "zero", "0", "0"},
		1: {"echo", "range", "1", "0"},
		2: {"echo", "range", "2", "1"},
		3: {"echo", "rest", "3", "3", "quoted arg"},
		4: {"echo", "rest", "4", "4", "quoted arg"},
	}
	for rank, w := range want {
		got, err := TaskArgv(conf, rank, nil)
		if err != nil || !slices.Equal(got, w) {
			t.Errorf("task %d: %q, %v; want %q", rank, got, err, w)
		}
	}
}

func TestTaskArgv_Forms(t *testing.T) {
	for _, tc := range []struct {
		conf  string
		rank  int
		extra []string
		want  []string
	}{
		{"0,3-4 prog %o\n", 3, nil, []string{"prog", "1"}},
		{"0,3-4 prog %o\n", 4, []string{"x", "y"}, []string{"prog", "2", "x", "y"}},
		{"0 a\\ b c\n", 0, nil, []string{"a b", "c"}},
		{"0 a \\\n  b\n", 0, nil, []string{"a", "b"}},
		{"0 pre%tpost\n", 0, nil, []string{"pre0post"}},
		{"  # not me\n\n* x\n", 7, nil, []string{"x"}},
	} {
		got, err := TaskArgv(tc.conf, tc.rank, tc.extra)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q task %d: %q, %v; want %q", tc.conf, tc.rank, got, err, tc.want)
		}
	}
	for _, bad := range []string{"0\n", "1 x\n", "0 'open\n"} {
		if got, err := TaskArgv(bad, 0, nil); err == nil {
			t.Errorf("%q: %q, want an error", bad, got)
		}
	}
}

// TestVerify_Reference checks srun's messages for the files the reference refused.
func TestVerify_Reference(t *testing.T) {
	for _, tc := range []struct {
		conf, name string
		ntasks     int
		want       string
	}{
		{"0 echo only\n", "bad.conf", 2, "Configuration file bad.conf invalid, no record for task id 1"},
		{"0 echo a\n0 echo b\n", "dup.conf", 1, "Duplicate record for task 0\nLine 2 of configuration file dup.conf invalid"},
		{"0\n", "c", 1, "Line 1 of configuration file c invalid"},
		{"* a\n0 b\n", "c", 1, "Task range specification with asterisk must be last\nLine 2 of configuration file c invalid"},
	} {
		_, err := Verify(tc.conf, tc.name, tc.ntasks, true)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %q", tc.conf, err, tc.want)
		}
	}
	if n, err := Verify(conf, "c", 5, true); n != 5 || err != nil {
		t.Errorf("reference file: %d, %v", n, err)
	}
	// Without -n, the ranks named set the task count.
	if n, err := Verify("0-3 x\n", "c", 1, false); n != 4 || err != nil {
		t.Errorf("0-3 without -n: %d, %v; want 4 tasks", n, err)
	}
	if _, err := Verify("0-3 x\n", "c", 1, true); err == nil || err.Error() != "Invalid task id, 3 >= ntasks\nLine 1 of configuration file c invalid" {
		t.Errorf("0-3 with -n1: %v", err)
	}
}

func FuzzMultiProg(f *testing.F) {
	f.Add(conf, 3, 4)
	f.Add("0 a \\\n b 'c\\\nd'\n", 0, 1)
	f.Add("1-0,x,2-3- p %", 2, 3)
	f.Fuzz(func(t *testing.T, data string, rank, ntasks int) {
		if ntasks > 1<<16 || ntasks < -1 {
			return
		}
		TaskArgv(data, rank, []string{"e"})
		Verify(data, "f", ntasks, rank%2 == 0)
	})
}
