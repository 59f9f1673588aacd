package ctld_test

import (
	"errors"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestBatchScript_Access: `scontrol write batch_script` gets a held job's exact script as its
// owner or root; another user gets "Invalid user id", an unknown id "Invalid job id
// specified", an allocation without a script "Job script not specified" (Slurm's
// _slurm_rpc_dump_batch_script).
func TestBatchScript_Access(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	const owner, other = 1234, 4321
	d := script("#SBATCH -J kept\necho 'a  b'\n\ttab\nno-newline-after-this")
	d.Script = d.Script[:len(d.Script)-1]
	d.Hold = true
	id, err := f.submit(owner, d)
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	get := func(uid, job uint32) (string, error) {
		rep := new(wire.BatchScriptReply)
		err := f.call(uid, wire.MsgBatchScript, &wire.BatchScriptRequest{JobID: job}, rep)
		return rep.Script, err
	}
	for _, uid := range []uint32{owner, 0} {
		if got, err := get(uid, id); err != nil || got != d.Script {
			t.Errorf("as uid %d: %q, %v; want %q", uid, got, err, d.Script)
		}
	}
	alloc := script("")
	alloc.Script = ""
	rep := new(wire.AllocateJobReply)
	if err := f.call(owner, wire.MsgAllocateJob, &wire.AllocateJobDesc{Job: *alloc}, rep); err != nil {
		t.Fatalf("allocate: %v", err)
	}
	for _, tc := range []struct {
		uid, job uint32
		errno    int32
		text     string
	}{
		{other, id, 2010, "Invalid user id"},
		{owner, id + 1000, 2017, "Invalid job id specified"},
		{0, 0, 2017, "Invalid job id specified"},
		{owner, rep.JobID, 2009, "Job script not specified"},
	} {
		got, err := get(tc.uid, tc.job)
		var we *wire.Error
		if !errors.As(err, &we) || we.Errno != tc.errno || we.Text != tc.text || got != "" {
			t.Errorf("job %d as uid %d: %q, %v; want errno %d %q", tc.job, tc.uid, got, err, tc.errno, tc.text)
		}
	}
}
