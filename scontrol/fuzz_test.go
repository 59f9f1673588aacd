package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func quietCLI() *cli {
	return &cli{prog: "scontrol", stdout: bufio.NewWriter(io.Discard), stderr: io.Discard}
}

// FuzzParseOptions checks that no command line makes the option parser panic, and that the
// words it returns all come from the command line, in order.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"show hostnames a", "-vV", "--clu x show", "-uroot show", "--h", "--=x",
		"-- -a", "show -d hostnames", "-M", "setdebugflags -x", "--uid", "-Qo", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, " ")
		words, _ := quietCLI().parseOptions(args)
		k := 0
		for _, w := range words {
			for k < len(args) && args[k] != w {
				k++
			}
			if k == len(args) {
				t.Fatalf("parseOptions(%q) returned %q, not words of the command line in order", args, words)
			}
			k++
		}
	})
}

// FuzzSplitLine checks that interactive lines split without panicking into non-empty words.
func FuzzSplitLine(f *testing.F) {
	for _, s := range []string{"show hostnames a[1-2]", `show hostlist "a1 a2"`, "x'a b'", "\t a \x00 b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, ok := quietCLI().splitLine(line)
		if !ok && len(words) != 0 {
			t.Fatalf("splitLine(%q) failed but returned words", line)
		}
		for _, w := range words {
			if w == "" || strings.ContainsRune(w, 0) {
				t.Fatalf("splitLine(%q) returned word %q", line, w)
			}
		}
	})
}

// FuzzStrtoul checks that show step's id reader (Slurm's strtol) never panics and always
// returns a suffix of its input.
func FuzzStrtoul(f *testing.F) {
	for _, s := range []string{"12.3", "12_4", " +7x", "-1", "99999999999999999999.batch", "", ".", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, rest := strtoul(s); !strings.HasSuffix(s, rest) {
			t.Fatalf("strtoul(%q) left %q, not a suffix", s, rest)
		}
	})
}

// FuzzJobNameArg checks that hold's Name= reader never panics and returns a suffix.
func FuzzJobNameArg(f *testing.F) {
	for _, s := range []string{"Name=x", "jobid=JobName=a,b", "Job=", "12", "name="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if name, ok := jobNameArg(s); ok && !strings.HasSuffix(s, name) {
			t.Fatalf("jobNameArg(%q) = %q, not a suffix", s, name)
		}
	})
}

// FuzzParseResvOptions checks that no reservation command line makes the option parser, the
// create checks or the wire conversion panic, and that a refusal always says something.
func FuzzParseResvOptions(f *testing.F) {
	for _, s := range []string{"res starttime=now duration=5 nodes=n1 users=root", "flags+=daily,-maint,purge_comp=5,,x",
		"tres=cpu=1,2,node=3k,license/a=1", "tres==", "tres=/=1", "nodecnt=1k,m,0", "watts=-5k", "users+=a,,b",
		"duration+=1-2:3:4", "=x", "x+=", "sk", "corecnt=99999999999999999999", "starttime=uts1 endtime= partition="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		env := testResvEnv()
		env.tresKnown = func(string) bool { return true }
		r, perr := parseResvOptions(strings.Split(line, " "), "No reservation created.", env)
		if perr != nil {
			if len(perr.lines) == 0 || perr.errno == "" {
				t.Fatalf("%q: refused without a message", line)
			}
			return
		}
		if r.checkCreate() == "" && r.desc().StartTime == 0 {
			t.Fatalf("%q: a create without a start time was accepted", line)
		}
	})
}
