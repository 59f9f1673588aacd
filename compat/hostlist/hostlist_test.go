package hostlist

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The expected values below were read off the reference Slurm 22.05 (`scontrol show
// hostnames|hostlist|hostlistsorted`); testsuite/hostlist compares hundreds more end to end.

func TestExpand(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{"n[8-10]", []string{"n8", "n9", "n10"}},
		{"n[01-03]", []string{"n01", "n02", "n03"}},
		{"n[1-05]", []string{"n1", "n2", "n3", "n4", "n5"}},
		{"rack[0-1]_blade[2,3]", []string{"rack0_blade2", "rack0_blade3", "rack1_blade2", "rack1_blade3"}},
		{"a,,b", []string{"a", "b"}},
		{"a b\tc", []string{"a", "b", "c"}},
		{"a\nb", []string{"a\nb"}}, // newline is not a separator
		{"n1,n1", []string{"n1", "n1"}},
		{"[1-3]", []string{"1", "2", "3"}},
		{"a[1-3", []string{"a]"}}, // '[' without ']': Slurm keeps the prefix and adds ']'
		{"[1-3", []string{"1-3"}},
		{"a[1,2", []string{"a]", "2"}}, // the ',' splits: no ']' closes the bracket
		{"a[1-]", []string{"a1"}},
		{"x[ 1]", []string{"x01"}}, // strtoul skips the blank, the width still counts it
		{"y[+2]", []string{"y02"}},
		{"a[1a-3]", []string{"a01", "a02", "a03"}},
		{"n99999999999999999999999", []string{"n00018446744073709551615"}},
		{"a[0-18446744073709551615]", []string{}}, // the count wraps to 0
		{"a[1],]", []string{"a1", "]"}},
		{"a[1[2]", []string{"a[12"}},
		{"[", []string{""}},
		{"", []string{}},
		{"a[x]b[1-2]c[3]", []string{}}, // logged twice, but accepted
	}
	for _, tt := range tests {
		got, err := Expand(tt.expr)
		if err != nil {
			t.Errorf("Expand(%q): %v", tt.expr, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Expand(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		expr  string
		diags []string
		fatal bool
	}{
		{"a[3-1]", []string{"_parse_single_range: Invalid range: `3-1'"}, false},
		{"a[-1]", []string{"_parse_single_range: Invalid range: `-1'"}, false},
		{"a[1--2]", []string{"_parse_single_range: Invalid range: `1--2'"}, false},
		{"a[]", []string{"_parse_single_range: Invalid range: `'"}, false},
		{"a[1,,2]", []string{"_parse_single_range: Invalid range: `'"}, false},
		{"a[0x10]", []string{"_parse_single_range: Invalid range: `0x10'"}, false},
		{"a[0-65536]", []string{"_parse_single_range: Too many hosts in range `0-65536'"}, false},
		{"gpu[1-2]-ib", nil, false}, // no suffix after ']' in Slurm 22.05
		{"a[1]]", nil, false},
		{"a[0-65536]b[1]", []string{"_parse_single_range: Too many hosts in range `0-65536'"}, false},
		{"a[0-32767,32768-65535,65536]b[1]", nil, false}, // more than 64Ki prefixes
		{"a[" + strings.Repeat("1,", MaxRanges) + "1]", []string{"_parse_range_list: Too many ranges, can't process entire list"}, true},
	}
	for _, tt := range tests {
		_, err := Parse(tt.expr)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%.40q) = %v, want *Error", tt.expr, err)
			continue
		}
		if !slices.Equal(e.Diagnostics, tt.diags) || e.Fatal != tt.fatal {
			t.Errorf("Parse(%.40q) diagnostics %q fatal %v, want %q fatal %v", tt.expr, e.Diagnostics, e.Fatal, tt.diags, tt.fatal)
		}
	}
	if _, err := Parse("a[0-65535]b[1]"); err != nil {
		t.Errorf("Parse at the 64Ki prefix limit: %v", err)
	}
}

func TestCompress(t *testing.T) {
	tests := []struct {
		names        []string
		ranged, sort string
	}{
		{[]string{"n8", "n9", "n10"}, "n[8-10]", "n[8-10]"},
		{[]string{"n10", "n9", "n8"}, "n[10,9,8]", "n[8-10]"},
		{[]string{"b2", "a1", "b1", "a2"}, "b2,a1,b1,a2", "a[1-2],b[1-2]"},
		{[]string{"a1", "a1", "a2"}, "a[1,1-2]", "a[1,1-2]"},
		{[]string{"x", "x", "y", "x"}, "x,x,y,x", "x,x,x,y"},
		{[]string{"a1", "a", "a2"}, "a1,a,a2", "a,a[1-2]"},
		{[]string{"a10b", "a9b", "a1"}, "a10b,a9b,a1", "a1,a9b,a10b"},
		{[]string{"n10", "n9", "n09", "n010", "n8"}, "n[10,9,09,010,8]", "n[8-9,09-10,010]"},
		{[]string{"n1", "n0001", "n01", "n001"}, "n[1,0001,01,001]", "n[1,01,001,0001]"},
		{[]string{"n9", "n10"}, "n[9-10]", "n[9-10]"},
		{[]string{"n09", "n10"}, "n[09-10]", "n[09-10]"},
		{[]string{"n9", "n010"}, "n[9,010]", "n[9,010]"},
		{[]string{"n18446744073709551616", "n18446744073709551615"}, "n[18446744073709551615,18446744073709551615]", "n[18446744073709551615,18446744073709551615]"},
		{nil, "", ""},
	}
	for _, tt := range tests {
		if got := Compress(tt.names); got != tt.ranged {
			t.Errorf("Compress(%q) = %q, want %q", tt.names, got, tt.ranged)
		}
		if got := CompressSorted(tt.names); got != tt.sort {
			t.Errorf("CompressSorted(%q) = %q, want %q", tt.names, got, tt.sort)
		}
	}
}

func TestHostlist_Sort_Overlaps(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"a[1-5],a[3-8]", "a[1-3,3-4,4-5,5-8]"},
		{"a[1-5],a3", "a[1-3,3-5]"},
		{"a[1-3],a[1-3]", "a[1,1-2,2-3,3]"},
		{"n[1-10],n[5-15]", "n[1-5,5-6,6-7,7-8,8-9,9-10,10-15]"},
		{"n[01-20],n[5-25]", "n[5-25,01-20]"},
		{"a[1],]", "],a1"},
	}
	for _, tt := range tests {
		hl, err := Parse(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		hl.Sort()
		if got := hl.Ranged(); got != tt.want {
			t.Errorf("sorted %q = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

func TestUniq(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"n3", "n1", "n2", "n1"}, "n[1-3]"},
		{[]string{"x", "x", "y"}, "x,y"},
		{[]string{"b1", "a2", "a1", "b1"}, "a[1-2],b1"},
	}
	for _, tt := range tests {
		if got := Uniq(tt.names); got != tt.want {
			t.Errorf("Uniq(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

func TestHostlist_CountNth(t *testing.T) {
	hl, err := Parse("n[1-3],m,n[5-6]")
	if err != nil {
		t.Fatal(err)
	}
	if hl.Count() != 6 {
		t.Errorf("Count = %d, want 6", hl.Count())
	}
	want := []string{"n1", "n2", "n3", "m", "n5", "n6"}
	for i, w := range want {
		if got, ok := hl.Nth(i); !ok || got != w {
			t.Errorf("Nth(%d) = %q, %v; want %q", i, got, ok, w)
		}
	}
	if _, ok := hl.Nth(6); ok {
		t.Errorf("Nth(6) found a host past the end")
	}
	var more Hostlist
	if err := more.Push("a[1-2]"); err != nil {
		t.Fatal(err)
	}
	more.PushHost("a3")
	if got := more.Ranged(); got != "a[1-3]" {
		t.Errorf("Push+PushHost = %q, want a[1-3]", got)
	}
	if n, err := Count("a[1-3],b"); err != nil || n != 4 {
		t.Errorf("Count = %d, %v; want 4", n, err)
	}
}

func TestStrnatcmp(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a", "b", -1},
		{"rack9n", "rack10n", -1},
		{"rack10n", "rack9n", 1},
		{"a01", "a1", -1},
		{"a b", "ab", 0},  // white space is skipped
		{"\xe9", "e", -1}, // bytes compare as signed char
		{"", "", 0},
	}
	for _, tt := range tests {
		if got := strnatcmp(tt.a, tt.b); got != tt.want {
			t.Errorf("strnatcmp(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
