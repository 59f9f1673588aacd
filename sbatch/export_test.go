package main

import (
	"reflect"
	"testing"
)

func TestJobEnv_Export(t *testing.T) {
	env := []string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h"}
	tail := []string{"SLURM_PRIO_PROCESS=0", "SLURM_SUBMIT_DIR=/w", "SLURM_SUBMIT_HOST=h1"}
	cases := []struct {
		export string
		want   []string
	}{
		{"", append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h"}, tail...)},
		{"ALL", append([]string{"PATH=/bin", "FOO=bar", "SLURM_X=1", "HOME=/h", "SLURM_EXPORT_ENV=ALL"}, tail...)},
		{"NONE", append([]string{"SLURM_X=1", "SLURM_EXPORT_ENV=NONE", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"FOO", append([]string{"SLURM_X=1", "FOO=bar", "SLURM_EXPORT_ENV=FOO", "SLURM_GET_USER_ENV=1"}, tail...)},
		{"FOO=baz,NOPE,ARG=1", append([]string{"SLURM_X=1", "FOO=baz", "ARG=1", "SLURM_EXPORT_ENV=FOO=baz,NOPE,ARG=1", "SLURM_GET_USER_ENV=1"}, tail...)},
		// With ALL listed, the caller's own values win over the list's.
		{"ALL,FOO=baz,BAZ=1", append([]string{"SLURM_X=1", "FOO=bar", "BAZ=1", "PATH=/bin", "HOME=/h", "SLURM_EXPORT_ENV=ALL,FOO=baz,BAZ=1", "SLURM_GET_USER_ENV=1"}, tail...)},
	}
	for _, c := range cases {
		got := jobEnv(env, c.export, "/w", "h1", 0)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("--export=%q:\n got %q\nwant %q", c.export, got, c.want)
		}
	}
}
