package main

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/conf"
)

// TestRefuseUnhonoured: every option Orbit parses but does not honour is refused with
// srun's wording and exit 1, whether it comes from the command line, #SBATCH or the
// environment; options Orbit honours or only stores and shows stay accepted.
func TestRefuseUnhonoured(t *testing.T) {
	cases := []struct {
		args     []string
		env      []string
		script   string
		parts    []*conf.Partition // slurm.conf's partitions; nil = one default with OverSubscribe=NO
		licenses string            // slurm.conf's Licenses
		refused  string            // the option named in the error; "" = accepted
	}{
		{args: []string{"-L", "matlab"}, licenses: "matlab:2"}, // the controller counts licenses
		{args: []string{"-L", "matlab"}},                       // and refuses one not configured
		{script: "#SBATCH --reservation=maint\n"},              // and the reservation
		{args: []string{"--exclusive=user"}},                   // the controller keeps the nodes to the user
		{args: []string{"--exclusive=mcs"}, refused: "--exclusive=mcs"},
		{args: []string{"--min-nodes-invasive=1"}, refused: "--min-nodes-invasive"},
		{args: []string{"--max-nodes-invasive=4"}, refused: "--max-nodes-invasive"},
		{args: []string{"--node-constraints=pof2"}, refused: "--node-constraints"},
		{args: []string{"--min-power=100"}, refused: "--min-power"},
		{args: []string{"--max-power=300"}, refused: "--max-power"},

		// Honoured, or only stored and shown as Slurm does without an accounting database.
		{args: []string{"--deadline=now+1hour"}},
		{args: []string{"--signal=B:USR1@60"}},
		{args: []string{"--signal=RB:USR1@60"}},
		{args: []string{"--signal=USR1@60"}},
		{args: []string{"--signal=R:USR1"}},
		{env: []string{"SBATCH_SIGNAL=10@30"}},
		{args: []string{"--exclusive"}},
		{args: []string{"--oversubscribe"}},
		{args: []string{"--exclusive=oversubscribe"}},
		{args: []string{"-s"}, parts: []*conf.Partition{{Name: "p", Default: true, OverSubscribe: "YES:4"}}}, // jobs share CPUs there
		{args: []string{"--oversubscribe", "-p", "q,p"}, parts: []*conf.Partition{{Name: "p", OverSubscribe: "YES:2"}, {Name: "q", Default: true, OverSubscribe: "NO"}}},
		{args: []string{"-s", "-p", "q"}, parts: []*conf.Partition{{Name: "p", Default: true, OverSubscribe: "YES:4"}, {Name: "q", OverSubscribe: "NO"}}},
		{args: []string{"-s"}, parts: []*conf.Partition{{Name: "p", Default: true, OverSubscribe: "EXCLUSIVE"}}},
		{args: []string{"--priority=100"}}, // the controller applies it for an operator only
		{args: []string{"--priority=TOP"}},
		{args: []string{"--node-constraints=none"}},
		{args: []string{"--comment=x", "-J", "n", "-A", "acct", "--qos=q", "--wckey=w"}},
		{args: []string{"--mail-type=END", "--mail-user=a@b", "--time-min=5", "-t", "10"}},
		{args: []string{"-C", "fast", "-x", "n2", "-w", "n1", "--begin=now+60", "-H", "--requeue"}},
		{args: []string{"-N", "1-2", "-n", "2", "-c", "1", "--mem=100", "--nice=5", "--open-mode=append"}},
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range cases {
		argv := append(append([]string{"sbatch"}, tc.args...), "job.sh")
		script := []byte("#!/bin/sh\n" + tc.script + "true\n")
		js, err := options.ParseSbatch(argv, tc.env, script, now)
		if err != nil {
			t.Fatalf("%v %v: parse: %v", tc.args, tc.env, err)
		}
		cfg := &conf.Config{Partitions: tc.parts, Licenses: tc.licenses}
		if tc.parts == nil {
			cfg.Partitions = []*conf.Partition{{Name: "debug", Default: true, OverSubscribe: "NO"}}
		}
		got := refuseUnhonoured(js, cfg)
		switch {
		case tc.refused == "" && got != nil:
			t.Errorf("%v %v %q: refused: %q", tc.args, tc.env, tc.script, got.Stderr)
		case tc.refused != "" && got == nil:
			t.Errorf("%v %v %q: accepted, want %s refused", tc.args, tc.env, tc.script, tc.refused)
		case tc.refused != "":
			want := "sbatch: error: " + tc.refused + " is not supported by Orbit's sbatch yet\n"
			if got.Stderr != want || got.ExitCode != 1 {
				t.Errorf("%v %v %q: %q exit %d, want %q exit 1", tc.args, tc.env, tc.script, got.Stderr, got.ExitCode, want)
			}
		}
	}
}
