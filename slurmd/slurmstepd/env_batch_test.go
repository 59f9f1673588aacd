package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

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
