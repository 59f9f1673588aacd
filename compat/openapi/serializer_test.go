package openapi

import (
	"strings"
	"testing"
)

// The expected texts below are what Slurm 22.05's serializer_json (json-c) and
// serializer_yaml (libyaml) print for the same data, as seen on the reference.

func sample() *Value {
	d := NewDict()
	d.Set("path", Str("/dev/null"))
	d.Set("unset", Str(""))
	d.Set("none", NullValue())
	d.Set("flags", NewList())
	d.Set("empty", NewDict())
	d.Set("t", BoolValue(true))
	d.Set("f", FloatValue(1))
	l := d.Set("list", NewList())
	l.AppendStr("debug")
	m := l.Append(NewDict())
	m.Set("n", IntValue(-2))
	d.Set("path", Str("/tmp")) // a key set again keeps its place
	return d
}

func TestJSON_Layout(t *testing.T) {
	want := `{
  "path": "\/tmp",
  "unset": "",
  "none": null,
  "flags": [
  ],
  "empty": {
  },
  "t": true,
  "f": 1.0,
  "list": [
    "debug",
    {
      "n": -2
    }
  ]
}`
	if got := JSON(sample()); got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

func TestJSON_Escaping(t *testing.T) {
	// json-c escapes " \ / and control characters; DEL and UTF-8 pass as they are.
	got := JSON(Str("x\ty\x01z\x7f\\é:\"/\x1b"))
	want := `"x\ty\u0001z` + "\x7f" + `\\é:\"\/\u001b"`
	if got != want {
		t.Errorf("JSON = %q, want %q", got, want)
	}
	if got := jsonDouble(0.5); got != "0.5" {
		t.Errorf("jsonDouble(0.5) = %q", got)
	}
}

func TestYAML_Layout(t *testing.T) {
	want := `%YAML 1.1
--- !!map
!!str path: !!str /tmp
!!str unset: !!null null
!!str none: !!null null
!!str flags: !!seq []
!!str empty: !!map {}
!!str t: !!bool true
!!str f: !!float 1.000000
!!str list: !!seq
- !!str debug
- !!map
  !!str n: !!int -2
...
`
	if got := YAML(sample()); got != want {
		t.Errorf("YAML =\n%s\nwant\n%s", got, want)
	}
}

func TestYAML_Quoting(t *testing.T) {
	long := "word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 " +
		"word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25"
	for _, tt := range []struct{ in, want string }{
		{"cpu=64,mem=257000M", "!!str cpu=64,mem=257000M"},
		{`a/b: "c" #d`, `!!str 'a/b: "c" #d'`},
		{"Linux 6.1 #1 SMP", "!!str 'Linux 6.1 #1 SMP'"},
		{"it's: x", "!!str 'it''s: x'"},
		{"- a", "!!str '- a'"},
		{" lead", "!!str ' lead'"},
		{"x\ty\x01z\x7f\\é:", `!!str "x\ty\x01z\x7F\\\xE9:"`},
		{"- a\x1b€😀", `!!str "- a\e\u20AC\U0001F600"`},
		// Past column 80 a scalar folds at a space, continuing two columns in.
		{long, "!!str word1 word2 word3 word4 word5 word6 word7 word8 word9 word10\n" +
			"    word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22\n" +
			"    word23 word24 word25"},
		{"\t" + long, "!!str \"\\tword1 word2 word3 word4 word5 word6 word7 word8 word9 word10\n" +
			"    word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22\n" +
			"    word23 word24 word25\""},
	} {
		d := NewDict()
		d.Set("j", NewList()).Append(NewDict()).Set("comment", Str(tt.in))
		got := YAML(d)
		prefix := "%YAML 1.1\n--- !!map\n!!str j: !!seq\n- !!map\n  !!str comment: "
		want := prefix + tt.want + "\n...\n"
		if got != want {
			t.Errorf("YAML(%q) =\n%s\nwant\n%s", tt.in, strings.TrimPrefix(got, prefix), tt.want)
		}
	}
}

func TestNewResponse_Meta(t *testing.T) {
	got := JSON(NewResponse())
	want := `{
  "meta": {
    "plugin": {
      "type": "openapi\/v0.0.38",
      "name": "Slurm OpenAPI v0.0.38"
    },
    "Slurm": {
      "version": {
        "major": 22,
        "micro": 8,
        "minor": 5
      },
      "release": "22.05.8"
    }
  },
  "errors": [
  ]
}`
	if got != want {
		t.Errorf("meta =\n%s\nwant\n%s", got, want)
	}
}
