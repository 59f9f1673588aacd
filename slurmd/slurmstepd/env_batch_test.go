package main

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// digits and shape reduce a variable to what must match the reference: its name and the shape
// of its value (numbers become N, paths PATH), since ids, pids and directories differ.
var digits = regexp.MustCompile(`[0-9]+`)

func shape(kv string) string {
	name, v, _ := strings.Cut(kv, "=")
	if strings.HasPrefix(v, "/") {
		return name + "=PATH"
	}
	return name + "=" + digits.ReplaceAllString(v, "N")
}

// compared is the part of the environment the golden files hold (record.sh's filter).
var compared = regexp.MustCompile(`^(SLURM|SLURMD|ENVIRONMENT|HOSTNAME|TMPDIR)[A-Z_]*=`)

func shapes(env []string) []string {
	var out []string
	for _, kv := range env {
		if compared.MatchString(kv) {
			out = append(out, shape(kv))
		}
	}
	slices.Sort(out)
	return out
}

// TestBatchEnv_MatchesReference replays the jobs of testdata/record.sh: the submitted
// environment holds what sbatch (and, for arrays, slurmctld) put there for those options, the
// launch what the controller sends, and the node's additions must give the reference's names
// and value shapes.
func TestBatchEnv_MatchesReference(t *testing.T) {
	sbatch := []string{"PATH=/usr/bin:/bin", "HOME=/root", "SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=vm",
		"SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022"}
	cases := []struct {
		golden string
		env    []string
		msg    wire.LaunchBatchJob
	}{
		{"default", []string{"SLURM_JOB_NAME=envrec-default"},
			wire.LaunchBatchJob{CPUsPerNode: []uint32{1}}},
		{"ntasks_cpus_mem", []string{"SLURM_JOB_NAME=envrec-ncm", "SLURM_NTASKS=4", "SLURM_NPROCS=4", "SLURM_CPUS_PER_TASK=2"},
			wire.LaunchBatchJob{CPUsPerNode: []uint32{8}, NumTasks: 4, CPUsPerTask: 2, MemPerNode: 100}},
		{"array", []string{"SLURM_JOB_NAME=envrec-array", "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_MIN=1",
			"SLURM_ARRAY_TASK_MAX=2", "SLURM_ARRAY_TASK_STEP=1"},
			wire.LaunchBatchJob{CPUsPerNode: []uint32{1}, ArrayJobID: 712, ArrayTaskID: 1, TimeLimit: 5}},
		{"pernode_memcpu_export", []string{"SLURM_JOB_NAME=envrec-pn", "SLURM_NTASKS_PER_NODE=2", "SLURM_EXPORT_ENV=NONE",
			"SLURM_GET_USER_ENV=1"},
			wire.LaunchBatchJob{CPUsPerNode: []uint32{2}, NumTasks: 2, MemPerCPU: 10}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/env_" + c.golden + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			want := shapes(strings.Split(strings.TrimSpace(string(raw)), "\n"))
			m := c.msg
			m.JobID, m.NodeName, m.NodeList, m.Partition = 714, "n1", "n1", "debug"
			m.UserID, m.GroupID, m.UserName, m.JobName = 0, 0, "root", "x"
			if m.ArrayJobID == 0 {
				m.ArrayTaskID = noVal
			}
			m.Environment = append(append([]string{}, sbatch...), c.env...)
			m.JobName = strings.TrimPrefix(c.env[0], "SLURM_JOB_NAME=")
			b := &stepdlaunch.Batch{Msg: m, NodeName: "n1", Spool: "/var/spool", ConfPath: "/etc/slurm/slurm.conf",
				ClusterName: "anchor", CtldAddr: "127.0.0.1", CtldPort: 6817}
			env, err := batchEnv(b)
			if err != nil {
				t.Fatal(err)
			}
			// SLURM_TASK_PID is exported by the stepd package as the task starts (TaskPidEnv);
			// slurmd/node's tests check its value in a real job.
			got := shapes(append(env, "SLURM_TASK_PID=1"))
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("missing or different: %s", w)
				}
			}
			for _, g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("not in the reference: %s", g)
				}
			}
		})
	}
}

func TestCompressedAndBlockLayout(t *testing.T) {
	cases := []struct {
		ntasks, cpt uint32
		cpus        []uint32
		layout      string
		cpusStr     string
	}{
		{0, 1, []uint32{1}, "1", "1"},
		{4, 2, []uint32{8}, "4", "8"},
		{0, 2, []uint32{8, 8, 4}, "4(x2),2", "8(x2),4"},
		{5, 1, []uint32{2, 2}, "3,2", "2(x2)"},
		{5, 1, []uint32{4, 1}, "4,1", "4,1"},
		{7, 1, []uint32{4, 1}, "5,2", "4,1"},
		{3, 1, []uint32{4, 4, 4}, "1(x3)", "4(x3)"},
	}
	for _, c := range cases {
		if got := compressed(blockLayout(c.ntasks, c.cpus, c.cpt)); got != c.layout {
			t.Errorf("tasks per node for %d tasks on %v: %q, want %q", c.ntasks, c.cpus, got, c.layout)
		}
		if got := compressed(c.cpus); got != c.cpusStr {
			t.Errorf("compressed(%v) = %q, want %q", c.cpus, got, c.cpusStr)
		}
	}
}

func FuzzReadLaunch(f *testing.F) {
	good, _ := wire.Marshal(&stepdlaunch.Batch{Msg: wire.LaunchBatchJob{JobID: 1, NodeList: "n[1-2]", CPUsPerNode: []uint32{2}},
		NodeName: "n1", Spool: "/tmp"})
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := t.TempDir() + "/launch"
		os.WriteFile(p, data, 0600)
		b, err := stepdlaunch.Read(p)
		if err != nil {
			return
		}
		batchEnv(b) // must not panic on any decoded launch
	})
}

// The package's tests never run a real login shell through batchEnv (the fuzzer would, as
// root, for every launch holding SLURM_GET_USER_ENV=1): fakeUserEnv stands in, and
// TestSuUserEnv checks the real loader on its own.
func init() { loadUserEnv = fakeUserEnv }

func fakeUserEnv(name string, _ time.Duration) ([]string, error) {
	if name != "root" {
		return nil, errors.New("no such user")
	}
	return []string{"HOME=/root", "PATH=/usr/local/bin:/usr/bin:/bin", "SHELL=/bin/bash", "LOGIN_ONLY=1"}, nil
}

func TestWithUserEnv(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		user string
		want []string
	}{
		// Not asked for: the submitted environment alone.
		{"unasked", []string{"PATH=/bin", "SLURM_EXPORT_ENV=NONE"}, "root", []string{"PATH=/bin", "SLURM_EXPORT_ENV=NONE"}},
		// Asked for: the login environment under the submitted one, whose values win.
		{"merged", []string{"PATH=/bin", "SLURM_GET_USER_ENV=1"}, "root",
			[]string{"HOME=/root", "PATH=/bin", "SHELL=/bin/bash", "LOGIN_ONLY=1", "SLURM_GET_USER_ENV=1"}},
		// The login environment cannot be had: the job runs with what was submitted.
		{"failed", []string{"SLURM_GET_USER_ENV=1"}, "nobody-here", []string{"SLURM_GET_USER_ENV=1"}},
	}
	for _, c := range cases {
		b := &stepdlaunch.Batch{Msg: wire.LaunchBatchJob{UserName: c.user, Environment: c.env}}
		if got := withUserEnv(b); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestParseUserEnv(t *testing.T) {
	out := "Welcome to the cluster!\n\n\n" + userEnvStart + "\nHOME=/home/u\nDISPLAY=:0\nHOSTNAME=login1\n" +
		"ENVIRONMENT=BATCH\nBASH_FUNC_mod%%=() {  echo a\n  if x; then { y; }; fi\n}\nnot a variable\n" +
		"A=1\nA=2\nB=x=y\n" + userEnvStop + "\nC=after\n"
	got, err := parseUserEnv(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"HOME=/home/u", "BASH_FUNC_mod%%=() {  echo a\n  if x; then { y; }; fi\n}", "A=2", "B=x=y"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, bad := range []string{"", "HOME=/x\n", userEnvStart + "\nHOME=/x\n"} {
		if _, err := parseUserEnv(bad); err == nil {
			t.Errorf("parseUserEnv(%q): no error", bad)
		}
	}
}

// TestSuUserEnv loads root's login environment for real; only root may (as in Slurm).
func TestSuUserEnv(t *testing.T) {
	if os.Geteuid() != 0 {
		if _, err := suUserEnv("root", time.Second); err == nil {
			t.Error("a non-root node loaded a login environment")
		}
		t.Skip("loading a login environment needs root")
	}
	env, err := suUserEnv("root", 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(env)
	if v, _ := e.get("HOME"); v == "" {
		t.Errorf("no HOME in root's login environment %q", env)
	}
	if e.has("ENVIRONMENT") || e.has("HOSTNAME") {
		t.Errorf("ENVIRONMENT or HOSTNAME kept: %q", env)
	}
}

func FuzzParseUserEnv(f *testing.F) {
	f.Add(userEnvStart + "\nA=1\nF=() { x\n}\n" + userEnvStop + "\n")
	f.Add(userEnvStart + "\nF=() {{{\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, out string) {
		env, err := parseUserEnv(out)
		if err != nil {
			return
		}
		for _, kv := range env {
			if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
				t.Fatalf("bad entry %q", kv)
			}
		}
	})
}
