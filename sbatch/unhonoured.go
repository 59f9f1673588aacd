package main

import (
	"os"
	"os/user"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/options"
)

// refuseUnhonoured refuses options the shared table parses for sbatch but Orbit's controller
// and slurmd do not honour yet (issue 3: never silently ignored), so a job never runs where,
// when or how Slurm would not run it. Options whose only effect is what Orbit stores and
// shows (--comment, --account, --wckey, ...) stay accepted. privileged says the caller is an
// operator (root or SlurmUser): Slurm applies --priority only for them and silently ignores
// it for anyone else, as Orbit's controller does for everyone.
func refuseUnhonoured(js *jobspec.JobSpec, privileged bool) *options.Error {
	for _, c := range []struct {
		given bool
		name  string
	}{
		// No GRES or license accounting: the job could run without the GPU or license.
		{js.Gres != "", "--gres"},
		{js.Licenses != "", "--licenses"},
		// The controller neither removes a job that cannot end by its deadline nor has
		// reservations (Slurm rejects an unknown one; Orbit would run the job anywhere).
		{!js.Deadline.IsZero(), "--deadline"},
		{js.Reservation != "", "--reservation"},
		// Only the batch shell receives the pre-timeout signal: steps launched by srun do
		// not carry it, so without B: nothing would be signalled.
		{js.Signal != nil && !js.Signal.Batch, "--signal without B:"},
		// Only whole-node --exclusive is honoured; user/mcs sharing and oversubscription
		// are not, so the job would share nodes Slurm keeps apart (or wait where Slurm
		// oversubscribes).
		{js.Exclusive == jobspec.SharedOK, "--exclusive=oversubscribe"},
		{js.Exclusive == jobspec.SharedUser, "--exclusive=user"},
		{js.Exclusive == jobspec.SharedMCS, "--exclusive=mcs"},
		{privileged && js.Priority != jobspec.NoVal, "--priority"},
		// Orbit's malleable and power options (DESIGN.md §8) wait for sched/perfaware and
		// sched/poweraware; until then the job would run as a rigid one.
		{js.MinNodesInvasive != jobspec.NoVal, "--min-nodes-invasive"},
		{js.MaxNodesInvasive != jobspec.NoVal, "--max-nodes-invasive"},
		{js.NodeConstraints != "" && !strings.EqualFold(js.NodeConstraints, "none"), "--node-constraints"},
		{js.MinPower != jobspec.NoVal, "--min-power"},
		{js.MaxPower != jobspec.NoVal, "--max-power"},
	} {
		if c.given {
			return &options.Error{Stderr: "sbatch: error: " + c.name + " is not supported by Orbit's sbatch yet\n", ExitCode: 1}
		}
	}
	return nil
}

// operator says whether the caller is one Slurm lets set a job's priority without an
// accounting database: root or SlurmUser.
func operator(slurmUser string) bool {
	if os.Getuid() == 0 {
		return true
	}
	u, err := user.Current()
	return err == nil && slurmUser != "" && u.Username == slurmUser
}
