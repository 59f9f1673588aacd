package licenses

import (
	"errors"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []License
		err  bool
	}{
		{"", nil, false},
		{"matlab", []License{{"matlab", 1}}, false},
		{"matlab:2,stata;fluent:3", []License{{"matlab", 2}, {"stata", 1}, {"fluent", 3}}, false},
		{"matlab:1,matlab:2", []License{{"matlab", 3}}, false},
		{",,matlab:1;;", []License{{"matlab", 1}}, false},
		{"matlab:", []License{{"matlab", 0}}, false},
		{"matlab:+4", []License{{"matlab", 4}}, false},
		{"matlab:4294967297", []License{{"matlab", 1}}, false}, // Slurm's int32 cast
		{":5", []License{{"", 5}}, false},                      // refused later: no such license
		{"mat lab", nil, true},
		{"matlab:x", nil, true},
		{"matlab:2x", nil, true},
		{"matlab:-1", nil, true},
		{"matlab:+", nil, true},
		{"matlab:99999999999999999999", nil, true}, // clamped to LONG_MAX, which is -1 as int32
		{"matlab:2147483648", nil, true},
		{"matlab|stata", []License{{"matlab|stata", 1}}, false}, // no OR in 22.05: one odd name
	} {
		got, err := Parse(c.in)
		if c.err {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Parse(%q) = %v, %v; want ErrInvalid", c.in, got, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"matlab:2,stata;fluent:3", "a:1,a:-1", "x:99999999999999999999", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range l {
			if seen[e.Name] {
				t.Fatalf("Parse(%q) lists %q twice: %v", s, e.Name, l)
			}
			seen[e.Name] = true
		}
	})
}
