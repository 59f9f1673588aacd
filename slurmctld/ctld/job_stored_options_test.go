package ctld_test

import (
	"errors"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestSubmit_StoredOptions: what the controller does with the options it only stores:
// --reboot is for operators (Slurm's "rebooting of nodes is only allowed for admins") and
// makes the job exclusive; --prefer names features some node has, or is refused as Slurm
// refuses it; the values come back in the job's information as submitted.
func TestSubmit_StoredOptions(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	reboot := script("true")
	reboot.Reboot = true
	_, err := f.submit(1000, reboot)
	var we *wire.Error
	if !errors.As(err, &we) || we.Errno != 2002 || we.UserMsg != "rebooting of nodes is only allowed for admins" {
		t.Fatalf("--reboot by a user: %v; want Access/permission denied with Slurm's message", err)
	}
	id := f.mustSubmit(reboot)
	if j := f.job(id); !j.Reboot || j.OverSubscribe != "NO" {
		t.Errorf("--reboot by root: Reboot=%v OverSubscribe=%s; want Reboot and NO", j.Reboot, j.OverSubscribe)
	}
	prefer := script("true")
	prefer.Prefer = "nosuchfeature"
	if _, err := f.submit(0, prefer); !errors.As(err, &we) || we.Text != "Invalid preferred feature specification" {
		t.Errorf("--prefer=nosuchfeature: %v; want Slurm's refusal", err)
	}
	d := script("true")
	d.Network, d.MCSLabel, d.BurstBuffer, d.Container, d.PowerFlags = "sw1", "lab", "bb", "/c", 1
	d.ClusterFeatures, d.TresBind, d.TresFreq, d.NTasksPerSocket, d.Contiguous = "cf", "gpu:closest", "gpu:high", 2, true
	d.GresFlags, d.KillInvalid = "enforce-binding", 1
	j := f.job(f.mustSubmit(d))
	if j.Network != "sw1" || j.MCSLabel != "lab" || j.BurstBuffer != "bb" || j.Container != "/c" || j.PowerFlags != 1 ||
		j.ClusterFeatures != "cf" || j.TresBind != "gpu:closest" || j.TresFreq != "gpu:high" || j.NTasksPerSocket != 2 ||
		!j.Contiguous || j.GresFlags != "enforce-binding" || j.KillInvalidDep != 1 {
		t.Errorf("stored options not shown as submitted: %+v", j)
	}
}

// TestJobInfo_OverSubscribeOfPartition: a job that asked nothing shows what its partition
// makes of it, as Slurm's job info reports it: YES under OverSubscribe=FORCE:2, NO under
// EXCLUSIVE, OK under FORCE:1 (no sharing) and NO (matched on the reference).
func TestJobInfo_OverSubscribeOfPartition(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	held := script("true")
	held.Priority = 0
	id := f.mustSubmit(held)
	for _, c := range []struct {
		share uint16
		want  string
	}{{0x8000 | 2, "YES"}, {0, "NO"}, {0x8000 | 1, "OK"}, {1, "OK"}} {
		share := c.share
		if err := f.call(0, wire.MsgUpdatePartition, &wire.UpdatePartitionRequest{Name: "debug", MaxShare: &share, MaxTime: wire.NoVal}, nil); err != nil {
			t.Fatal(err)
		}
		if got := f.job(id).OverSubscribe; got != c.want {
			t.Errorf("partition max_share %#x: job OverSubscribe=%s, want %s", c.share, got, c.want)
		}
	}
}
