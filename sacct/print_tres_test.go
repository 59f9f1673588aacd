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
