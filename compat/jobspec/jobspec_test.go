package jobspec

import "testing"

func TestParseArray(t *testing.T) {
	a, err := ParseArray("0,3,5-9:2%4", DefaultMaxArraySize)
	if err != nil || len(a.Indices) != 5 || a.Indices[4] != 9 || a.Throttle != 4 {
		t.Errorf("got %+v %v", a, err)
	}
	for _, bad := range []string{"5-1", "abc", "0-2000", "1-10:0", "", "%2", "1-"} {
		if _, err := ParseArray(bad, DefaultMaxArraySize); err == nil || err.Error() != ErrInvalidArray {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestParseDependency(t *testing.T) {
	d, err := ParseDependency("afterok:1:2_3,after:4+5,singleton")
	if err != nil || len(d.Items) != 4 || d.Items[1].JobID != "2_3" || d.Items[2].Minutes != 5 || d.Any {
		t.Errorf("got %+v %v", d, err)
	}
	for _, bad := range []string{"foo:1", "afterok", "afterok:abc", "afterok:1,afterany:2?afterok:3", ""} {
		if _, err := ParseDependency(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseArray(f *testing.F) {
	for _, s := range []string{"1-10%2", "0,3,5-9:2", "5-1", "1-5%0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseArray(s, DefaultMaxArraySize)
		if err == nil && len(a.Indices) == 0 {
			t.Fatalf("%q: empty array accepted", s)
		}
	})
}

func FuzzParseDependency(f *testing.F) {
	for _, s := range []string{"afterok:1?afterany:2", "singleton", "after:1+5", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseDependency(s) })
}

// TestParseMailType: Slurm's parse_mail_type passes over names it does not know, ends at
// NONE, and refuses only a list that names no type (the reference's sbatch --mail-type).
func TestParseMailType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint16
		ok   bool
	}{
		{"begin", MailBegin, true},
		{"begin,bogus", MailBegin, true},
		{",begin,", MailBegin, true},
		{"begin,none", 0, true},
		{"none,begin", 0, true},
		{"bogus", 0, false},
		{"", 0, false},
		{"ALL", MailInvalidDepnd | MailBegin | MailEnd | MailFail | MailRequeue | MailStageOut, true},
		{"time_limit,TIME_LIMIT_50", MailTime100 | MailTime50, true},
	} {
		got, ok := ParseMailType(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseMailType(%q) = %#x, %v; want %#x, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if s := MailTypeString(MailTime100 | MailTime90 | MailStageOut | MailArrayTasks); s != "ARRAY_TASKS,STAGE_OUT,TIME_LIMIT_90,TIME_LIMIT" {
		t.Errorf("MailTypeString = %q", s)
	}
}
