package main

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
)

// TestStepTRES: a step's AllocTRES is cpu, mem and node as Slurm 22.05's step_set_alloc_tres
// records them ("cpu=1,mem=0,node=1" under CR_CPU, as the reference's `scontrol show step`
// prints), the batch step included; its ReqTRES is blank, as in Slurm's print.c.
func TestStepTRES(t *testing.T) {
	cols, err := format.ParseSacctFormat("jobid,alloctres,reqtres")
	if err != nil {
		t.Fatal(err)
	}
	r := sampleReply()
	j := &r.Jobs[0]
	for k, want := range []string{"cpu=2,mem=0,node=1", "cpu=4,mem=0,node=2"} {
		v := stepValues(cols, j, &j.Steps[k], time.Unix(2000, 0), true)
		if v[1].Text != want || v[1].Null || !v[2].Null {
			t.Errorf("step %d: AllocTRES %+v, ReqTRES %+v; want %q and blank", k, v[1], v[2], want)
		}
	}
}

// TestJobTRES: a job's AllocTRES and ReqTRES as sacct prints them (print.c's PRINT_TRESA /
// PRINT_TRESR through slurmdb_make_tres_string_from_simple, which sorts the elements by
// name), the tracked GRES included; a job that never started has a ReqTRES only. Checked
// against Slurm 22.05's source: the reference keeps no accounting database.
func TestJobTRES(t *testing.T) {
	cols, err := format.ParseSacctFormat("jobid,alloctres,reqtres")
	if err != nil {
		t.Fatal(err)
	}
	r := sampleReply()
	j := &r.Jobs[0]
	j.GresReqTRES, j.GresAllocTRES = "gres/gpu=2,gres/gpu:a100=2", "gres/gpu=2,gres/gpu:a100=2"
	v := jobValues(cols, j, time.Unix(2000, 0), true)
	const want = "billing=4,cpu=4,gres/gpu:a100=2,gres/gpu=2,mem=200M,node=2"
	if v[1].Text != want || v[2].Text != want {
		t.Errorf("AllocTRES %q, ReqTRES %q; want %q", v[1].Text, v[2].Text, want)
	}
	j.AllocCPUs, j.ReqMemMiB, j.ReqMemPerCPU, j.GresReqTRES = 0, 1024, true, ""
	v = jobValues(cols, j, time.Unix(2000, 0), true)
	if !v[1].Null || v[2].Text != "billing=4,cpu=4,mem=4G,node=2" {
		t.Errorf("pending job: AllocTRES %+v, ReqTRES %q", v[1], v[2].Text)
	}
}
