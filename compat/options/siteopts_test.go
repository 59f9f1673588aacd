package options

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

func TestParseDistribution(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  string
		plane uint32
		ok    bool
	}{
		{"block", "block", jobspec.NoVal, true},
		{"Cyclic:Block", "cyclic:block", jobspec.NoVal, true},
		{"*:*:*", "block:cyclic:cyclic", jobspec.NoVal, true},
		{"block:fcyclic:block", "block:fcyclic:block", jobspec.NoVal, true},
		{"hostfile", "arbitrary", jobspec.NoVal, true},
		{"plane=4", "plane", 4, true},
		{"cyclic,pack", "cyclic,pack", jobspec.NoVal, true},
		{"Pack", "pack", jobspec.NoVal, true},
		{"nopack", "nopack", jobspec.NoVal, true},
		{"pack,block", "", 0, false},
		{"fcyclic", "", 0, false},
		{"block:foo", "", 0, false},
		{"block:block:block:block", "", 0, false},
		{"plane", "", 0, false},
		{",block", "", 0, false},
		{"", "", 0, false},
	} {
		d, plane, ok := ParseDistribution(tc.in)
		if ok != tc.ok || ok && (d != tc.want || plane != tc.plane) {
			t.Errorf("ParseDistribution(%q) = %q, %d, %v; want %q, %d, %v", tc.in, d, plane, ok, tc.want, tc.plane, tc.ok)
		}
	}
}

// TestTaskDist: the task_dist_states values the reference's salloc -vv printed for these -m.
func TestTaskDist(t *testing.T) {
	for in, want := range map[string]uint32{
		"": 8192, "cyclic": 1, "block": 2, "plane=2": 4, "block:cyclic": 18, "arbitrary": 3,
		"block:*:fcyclic,pack": 8389394, "pack": 8396800,
	} {
		name := ""
		if in != "" {
			var ok bool
			if name, _, ok = ParseDistribution(in); !ok {
				t.Fatalf("ParseDistribution(%q) refused", in)
			}
		}
		if got := TaskDist(name); got != want {
			t.Errorf("TaskDist(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestParseMemBind(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"local", "local", ""},
		{"verbose,local", "verbose,local", ""},
		{"sort,map_mem:0*2,1", "sort,map_mem:0,0,1", ""},
		{"mask_mem=0x1,0x2", "mask_mem:0x1,0x2", ""},
		{"rank,none", "none", ""},
		{"map_mem", "", `missing list for "--mem-bind=map_mem:<list>"`},
		{"bogus", "", `unrecognized --mem-bind argument "bogus"`},
	} {
		got, _, _, err := ParseMemBind(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseMemBind(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseMemBind(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseCPUFreq(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"high", "High", ""},
		{"2000000", "2000000", ""},
		{"low-high", "Low-High", ""},
		{"1000-2000:UserSpace", "1000-2000:UserSpace", ""},
		{"performance", "Performance", ""},
		{"highm1", "Highm1", ""}, // Slurm's cpu_freq_to_cmdline spells it so
		{"2000-1000", "", "min cpu-frec (2000) must be < max cpu-freq (1000)"},
		{"foo", "", `unrecognized --cpu-freq argument "foo"`},
		{"conservative", "", "governor of conservative is not allowed in slurm.conf"},
		{"high:performance", "", "gov on cpu-frec (performance) illegal without max"},
		{"performance-high:ondemand", "", "governor cannot be specified twice performance{-}:ondemand in --cpu-freq"},
	} {
		f, err := ParseCPUFreq(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseCPUFreq(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || f.String() != tc.want {
			t.Errorf("ParseCPUFreq(%q) = %q, %v; want %q", tc.in, f.String(), err, tc.want)
		}
	}
}

func TestParseProfileAndAcctgFreq(t *testing.T) {
	for in, want := range map[string]string{"task": "Task", "Energy,TASK": "Energy,Task", "none": "None", "all": "Energy,Lustre,Network,Task", "bogus": ""} {
		if got, ok := ParseProfile(in); got != want || ok != (want != "") {
			t.Errorf("ParseProfile(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for in, want := range map[string]bool{"30": true, "task=10,energy=5": true, "network=0": true, "mem=5": false, "foo": false, "task=": false} {
		if ValidAcctgFreq(in) != want {
			t.Errorf("ValidAcctgFreq(%q) = %v", in, !want)
		}
	}
}

// TestHintRivals: --hint and --ntasks-per-core/--threads-per-core exclude each other as in
// Slurm's validate_hint_option, and a kept hint implies threads per core.
func TestHintRivals(t *testing.T) {
	for _, tc := range []struct {
		env, argv  []string
		hint       string
		tpc, npc   uint32
		ntasks     uint32
		errContain string
	}{
		{nil, []string{"--hint=nomultithread"}, "nomultithread", 1, jobspec.NoVal, jobspec.NoVal, ""},
		{nil, []string{"--hint=multithread"}, "multithread", jobspec.NoVal, 0xffff, jobspec.NoVal, ""},
		{nil, []string{"--hint=nomultithread", "--ntasks-per-core=2"}, "", jobspec.NoVal, 2, jobspec.NoVal, ""},
		{[]string{"SLURM_HINT=compute_bound"}, []string{"--threads-per-core=1"}, "", 1, jobspec.NoVal, jobspec.NoVal, ""},
		{[]string{"SBATCH_THREADS_PER_CORE=1"}, []string{"--hint=multithread"}, "multithread", jobspec.NoVal, 0xffff, jobspec.NoVal, ""},
		{[]string{"SLURM_HINT=memory_bound"}, nil, "memory_bound", 1, jobspec.NoVal, jobspec.NoVal, ""},
		{nil, []string{"-N", "2", "--hint=nomultithread"}, "nomultithread", 1, jobspec.NoVal, 2, ""},
		{nil, []string{"-N", "2", "--cores-per-socket=3"}, "", jobspec.NoVal, jobspec.NoVal, 6, ""},
		{nil, []string{"--hint=nomultithread,fast"}, "", 0, 0, 0, `unrecognized --hint argument "fast", see --hint=help`},
	} {
		argv := append(append([]string{"sbatch"}, tc.argv...), "--wrap", "true")
		js, err := SbatchInput{Argv: argv, Env: tc.env, Cwd: "/tmp", Now: time.Now()}.Parse()
		if tc.errContain != "" {
			var oe *Error
			if !errors.As(err, &oe) || !strings.Contains(oe.Stderr, tc.errContain) || oe.ExitCode != 1 {
				t.Errorf("%v %v: error %v, want exit 1 with %q", tc.env, tc.argv, err, tc.errContain)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v %v: %v", tc.env, tc.argv, err)
		}
		s := js.Site
		if s.Hint != tc.hint || s.ThreadsPerCore != tc.tpc || s.NTasksPerCore != tc.npc || js.NTasks != tc.ntasks {
			t.Errorf("%v %v: hint %q tpc %d npc %d ntasks %d; want %q %d %d %d", tc.env, tc.argv,
				s.Hint, s.ThreadsPerCore, s.NTasksPerCore, js.NTasks, tc.hint, tc.tpc, tc.npc, tc.ntasks)
		}
	}
}

// FuzzSiteOptions: any value of any site option either parses or fails with a command
// error and Slurm's exit code; never a panic.
func FuzzSiteOptions(f *testing.F) {
	for _, s := range []string{"nomultithread", "cyclic:block", "plane=2", "map_mem:0*2,1", "low-high:performance",
		"task,energy", "task=10,energy=5", "10G", "1@5:00", "2000-1000", ",", "*:*:*", "0*", "x*99999999", "-1"} {
		for _, o := range []string{"hint", "distribution", "mem-bind", "cpu-freq", "profile", "acctg-freq", "tmp",
			"switches", "delay-boot", "threads-per-core", "core-spec"} {
			f.Add(o, s)
		}
	}
	f.Fuzz(func(t *testing.T, opt, val string) {
		if !isSiteOption(opt) || Lookup(Sbatch, opt) == nil || Lookup(Sbatch, opt).Name == "" {
			return
		}
		_, err := SbatchInput{Argv: []string{"sbatch", "--" + opt + "=" + val, "--wrap", "true"}, Cwd: "/tmp", Now: time.Now()}.Parse()
		if err == nil {
			return
		}
		var oe *Error
		if !errors.As(err, &oe) || oe.Stderr == "" || (oe.ExitCode != 1 && oe.ExitCode != 255) {
			t.Fatalf("--%s=%q: %v (%#v)", opt, val, err, oe)
		}
	})
}
