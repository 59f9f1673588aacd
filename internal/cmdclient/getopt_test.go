package cmdclient_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

var testOpts = []cmdclient.Opt{
	{Long: "jobs", Short: 'j', Arg: cmdclient.OptionalArg},
	{Long: "noheader", Short: 'h'},
	{Long: "format", Short: 'o', Arg: cmdclient.RequiredArg},
	{Long: "Format", Short: 'O', Arg: cmdclient.RequiredArg},
	{Long: "states", Short: 't', Arg: cmdclient.RequiredArg},
	{Long: "start"},
}

func TestGetopt(t *testing.T) {
	cases := []struct {
		args    []string
		want    string // "name=value" per option, then "| operands"
		wantErr string
	}{
		{[]string{"-h", "-j12", "x"}, "noheader jobs=12 | x", ""},
		{[]string{"-j", "12"}, "jobs | 12", ""},
		{[]string{"--jobs=1,2", "-hto", "%i"}, "jobs=1,2 noheader states=o | %i", ""},
		{[]string{"--form", "%i"}, "format=%i |", ""},
		{[]string{"--st"}, "", "squeue: option '--st' is ambiguous; possibilities: '--states' '--start'"},
		{[]string{"--st=1"}, "", "squeue: option '--st=1' is ambiguous; possibilities: '--states' '--start'"},
		{[]string{"--bogus"}, "", "squeue: unrecognized option '--bogus'"},
		{[]string{"--bogus=1"}, "", "squeue: unrecognized option '--bogus=1'"},
		{[]string{"-Z"}, "", "squeue: invalid option -- 'Z'"},
		{[]string{"-o"}, "", "squeue: option requires an argument -- 'o'"},
		{[]string{"--format"}, "", "squeue: option '--format' requires an argument"},
		{[]string{"--noheader=1"}, "", "squeue: option '--noheader' doesn't allow an argument"},
		{[]string{"--", "-h"}, " | -h", ""},
	}
	for _, c := range cases {
		found, ops, err := cmdclient.Getopt("squeue", c.args, testOpts)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%q: err = %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		var parts []string
		for _, f := range found {
			s := f.Opt.Long
			if f.HasValue {
				s += "=" + f.Value
			}
			parts = append(parts, s)
		}
		got := strings.Join(parts, " ") + " |"
		if len(ops) > 0 {
			got += " " + strings.Join(ops, " ")
		}
		if got != c.want {
			t.Errorf("%q = %q, want %q", c.args, got, c.want)
		}
	}
}

func FuzzGetopt(f *testing.F) {
	for _, s := range []string{"-h -j12 x", "--jobs=1 -hto %i", "--st", "-", "--", "-o", "--=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmdclient.Getopt("squeue", strings.Fields(s), testOpts)
	})
}
