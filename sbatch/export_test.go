package main

import (
	"reflect"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

func TestJobEnv_Export(t *testing.T) {
	env := []string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h"}
	tail := []string{"SLURM_PRIO_PROCESS=0", "SLURM_SUBMIT_DIR=/w", "SLURM_SUBMIT_HOST=h1"}
	cases := []struct {
		export  string
		userEnv bool // --get-user-env
		want    []string
	}{
		{"", false, append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h"}, tail...)},
		{"", true, append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"ALL", false, append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h", "SLURM_EXPORT_ENV=ALL"}, tail...)},
		{"ALL", true, append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h", "SLURM_EXPORT_ENV=ALL", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"NONE", false, append([]string{"SLURM_X=1", "SLURM_EXPORT_ENV=NONE", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"NONE", true, append([]string{"SLURM_X=1", "SLURM_EXPORT_ENV=NONE", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"FOO", false, append([]string{"SLURM_X=1", "FOO=bar", "SLURM_EXPORT_ENV=FOO", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"FOO=baz,NOPE,ARG=1", false, append([]string{"SLURM_X=1", "FOO=baz", "ARG=1", "SLURM_EXPORT_ENV=FOO=baz,NOPE,ARG=1", "SLURM_GET_USER_ENV=1"}, tail...)},
		// With ALL listed, the caller's own values win over the list's.
		{"ALL,FOO=baz,BAZ=1", false, append([]string{"SLURM_X=1", "FOO=bar", "BAZ=1", "PATH=/bin", "HOME=/h", "SLURM_EXPORT_ENV=ALL,FOO=baz,BAZ=1", "SLURM_GET_USER_ENV=1"}, tail...)},
	}
	for _, c := range cases {
		got := jobEnv(env, c.export, c.userEnv, nil, "/w", "h1", 0)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("--export=%q --get-user-env=%v:\n got %q\nwant %q", c.export, c.userEnv, got, c.want)
		}
	}
}

func TestJobEnv_Layout(t *testing.T) {
	js := jobspec.New(jobspec.Sbatch)
	js.NTasks, js.CPUsPerTask, js.NTasksPerNode = 4, 2, 4
	env := []string{"SLURM_NTASKS=9", "PATH=/bin"}
	got := jobEnv(env, "NONE", false, layoutEnv(js), "/w", "h1", 0)
	want := []string{"SLURM_NTASKS=4", "SLURM_EXPORT_ENV=NONE", "SLURM_GET_USER_ENV=1", "SLURM_CPUS_PER_TASK=2",
		"SLURM_NPROCS=4", "SLURM_NTASKS_PER_NODE=4", "SLURM_PRIO_PROCESS=0", "SLURM_SUBMIT_DIR=/w", "SLURM_SUBMIT_HOST=h1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if l := layoutEnv(jobspec.New(jobspec.Sbatch)); len(l) != 0 {
		t.Errorf("nothing asked, layoutEnv = %q", l)
	}
}

func TestScriptArgs(t *testing.T) {
	js := jobspec.New(jobspec.Sbatch)
	if a := scriptArgs(js); a != nil {
		t.Errorf("no script: %q", a)
	}
	js.Argv = []string{"job.sh", "one", "two words"}
	if a := scriptArgs(js); !reflect.DeepEqual(a, []string{"one", "two words"}) {
		t.Errorf("scriptArgs = %q", a)
	}
}
