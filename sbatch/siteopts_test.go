package main

import (
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/conf"
)

func siteConf(t *testing.T, nodes string) *conf.Config {
	t.Helper()
	cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=c\nSlurmctldHost=h\n"+nodes+
		"PartitionName=debug Nodes=ALL Default=YES\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestSiteOptionsAgainstNodes: a placement option is accepted where every node of the job's
// partitions makes it a no-op and refused by name where it would change placement; a --tmp
// no node has is left to the controller.
func TestSiteOptionsAgainstNodes(t *testing.T) {
	single := "NodeName=n1 CPUs=8 TmpDisk=100\n"
	smt := "NodeName=n1 Sockets=1 CoresPerSocket=4 ThreadsPerCore=2 TmpDisk=100\n"
	mixed := "NodeName=n1 CPUs=8 TmpDisk=100\nNodeName=n2 CPUs=8 TmpDisk=10\n"
	for _, tc := range []struct {
		nodes string
		args  []string
		want  string // "" = accepted; else a substring of the error
	}{
		{single, []string{"--hint=nomultithread"}, ""},
		{single, []string{"--hint=multithread", "--ntasks-per-core=2"}, ""},
		// Whole cores are the controller's (plugins/sched/selection cores.go), as is a
		// --threads-per-core no node has.
		{smt, []string{"--hint=nomultithread"}, ""},
		{smt, []string{"--ntasks-per-core=1"}, ""},
		{single, []string{"--threads-per-core=1", "--cores-per-socket=1", "--sockets-per-node=1"}, ""},
		{single, []string{"--threads-per-core=2"}, ""},
		{smt, []string{"--threads-per-core=1"}, ""},
		{single, []string{"--cores-per-socket=4"}, "--cores-per-socket or -B cores other than 1"},
		{single, []string{"--tmp=50"}, ""},
		{single, []string{"--tmp=1G"}, ""}, // no node has it: the controller refuses the job
		{mixed, []string{"--tmp=50"}, "--tmp where only some nodes"},
		{mixed, []string{"--tmp=5"}, ""},
		{single, []string{"--spread-job", "--use-min-nodes"}, ""},
		{mixed, []string{"--spread-job"}, ""}, // the controller spreads the job
		{mixed, []string{"--spread-job", "-N", "1"}, ""},
		{mixed, []string{"--use-min-nodes"}, ""}, // the controller aims at the minimum
		{mixed, []string{"--use-min-nodes", "-N", "2"}, ""},
		{mixed, []string{"-m", "cyclic", "--mem-bind=local", "--cpu-freq=high", "--profile=task", "--switches=1", "--delay-boot=5"}, ""},
		{single + "TopologyPlugin=topology/tree\n", []string{"--switches=1"}, "--switches"},
		{single + "AllowSpecResourcesUsage=YES\n", []string{"-S", "1"}, "--core-spec"},
	} {
		argv := append(append([]string{"sbatch"}, tc.args...), "--wrap", "true")
		js, err := options.SbatchInput{Argv: argv, Cwd: "/tmp", Now: time.Now()}.Parse()
		if err != nil {
			t.Fatalf("%v: parse: %v", tc.args, err)
		}
		oe := refuseUnhonoured(js, siteConf(t, tc.nodes))
		switch {
		case tc.want == "" && oe != nil:
			t.Errorf("%v on %q: refused: %s", tc.args, tc.nodes, oe.Stderr)
		case tc.want != "" && oe == nil:
			t.Errorf("%v on %q: accepted, want %q", tc.args, tc.nodes, tc.want)
		case oe != nil && (!strings.Contains(oe.Stderr, tc.want) || oe.ExitCode != 1):
			t.Errorf("%v on %q: exit %d %q, want exit 1 with %q", tc.args, tc.nodes, oe.ExitCode, oe.Stderr, tc.want)
		}
	}
}

// TestSiteWarnings: -S without AllowSpecResourcesUsage is dropped with Slurm's error line.
func TestSiteWarnings(t *testing.T) {
	js, err := options.SbatchInput{Argv: []string{"sbatch", "--thread-spec=2", "--wrap", "true"}, Cwd: "/tmp", Now: time.Now()}.Parse()
	if err != nil {
		t.Fatal(err)
	}
	cfg := siteConf(t, "NodeName=n1 CPUs=8\n")
	w := siteWarnings(js, cfg)
	want := "sbatch: error: Ignoring --thread-spec since it's not allowed by configuration (AllowSpecResourcesUsage = No)\n"
	if len(w) != 1 || w[0] != want {
		t.Errorf("warnings %q, want %q", w, want)
	}
	if oe := refuseUnhonoured(js, cfg); oe != nil {
		t.Errorf("refused after the warning dropped it: %s", oe.Stderr)
	}
}

// TestSiteEnv: what the job's environment gets, with --export=NONE too.
func TestSiteEnv(t *testing.T) {
	js, err := options.SbatchInput{Argv: []string{"sbatch", "--export=NONE", "--hint=nomultithread", "-m", "plane=4",
		"--mem-bind=v,local", "--cpu-freq=low-high:performance", "--profile=all", "--acctg-freq=10", "--wrap", "true"},
		Cwd: "/tmp", Now: time.Now()}.Parse()
	if err != nil {
		t.Fatal(err)
	}
	d := jobDesc(js, []string{"PATH=/bin", "SLURM_PROFILE=old"}, nil, "h", 1)
	got := strings.Join(d.Environment, "\n") + "\n"
	for _, want := range []string{"SLURM_HINT=nomultithread", "SLURM_THREADS_PER_CORE=1", "SLURM_DISTRIBUTION=plane",
		"SLURM_DIST_PLANESIZE=4", "SLURM_MEM_BIND=verbose,local", "SLURM_MEM_BIND_VERBOSE=verbose",
		"SLURM_CPU_FREQ_REQ=Low-High:Performance", "SLURM_PROFILE=Energy,Lustre,Network,Task", "SLURM_ACCTG_FREQ=10"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("job environment lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "SLURM_PROFILE=old") || strings.Contains(got, "PATH=/bin") {
		t.Errorf("job environment keeps what it should not:\n%s", got)
	}
}
