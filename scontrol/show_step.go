package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Slurm's special step numbers, as scontrol prints them.
const (
	stepBatch   uint32 = 0xfffffffb // SLURM_BATCH_SCRIPT: "batch"
	stepExtern  uint32 = 0xfffffffc // SLURM_EXTERN_CONT: "extern"
	stepPending uint32 = 0xfffffffd // SLURM_PENDING_STEP: "TDB"
)

// showStep is `scontrol show step [JOB[_TASK][.STEP]]` (Slurm's scontrol_print_step).
// The id is read as Slurm reads it, with strtol: a job id that is not a number is 0 (every
// job), and so is a step that is not a number ("1234.batch" shows step 0, as in Slurm).
// A job the controller does not know is an error; a known job without the step prints
// "Job step J.S not found" on stdout; both exit 1.
func (c *cli) showStep(_ string, val *string, _ []string) {
	var jobID uint64
	arrayTask, stepID := wire.NoVal, wire.NoVal
	if val != nil {
		var rest string
		jobID, rest = strtoul(*val)
		switch {
		case strings.HasPrefix(rest, "_"):
			t, _ := strtoul(rest[1:])
			arrayTask = uint32(t)
		case strings.HasPrefix(rest, "."):
			s, _ := strtoul(rest[1:])
			stepID = uint32(s)
		}
	}
	req := &wire.JobInfoRequest{ShowAll: c.all, Steps: true}
	if jobID != 0 {
		req.JobIDs = []uint32{uint32(jobID)}
	}
	var rep wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, req, &rep); e != nil {
		c.perror("slurm_get_job_steps error", e)
		return
	}
	if jobID != 0 && len(rep.Jobs) == 0 {
		c.perror("slurm_get_job_steps error", cmdclient.NewError(cmdclient.ErrnoInvalidJobID))
		return
	}
	if c.quiet == -1 {
		fmt.Fprintf(c.stdout, "last_update_time=%s, records=%d\n", c.timeStr(rep.LastUpdate), len(rep.Steps))
	}
	steps := rep.Steps
	// Slurm lists a job's steps in the order they were created: its batch step first.
	slices.SortStableFunc(steps, func(a, b wire.StepInfo) int {
		if a.JobID != b.JobID {
			return 0
		}
		return boolRank(a.StepID != stepBatch) - boolRank(b.StepID != stepBatch)
	})
	printed := 0
	for i := range steps {
		s := &steps[i]
		if stepID != wire.NoVal && s.StepID != stepID {
			continue
		}
		if arrayTask != wire.NoVal && s.ArrayTaskID != arrayTask {
			continue
		}
		c.stdout.WriteString(c.sprintStep(s))
		printed++
	}
	if printed > 0 {
		return
	}
	if val == nil {
		if c.quiet != 1 {
			c.stdout.WriteString("No job steps in the system\n")
		}
		return
	}
	c.exitCode = 1
	if c.quiet == 1 {
		return
	}
	step := ""
	if stepID != wire.NoVal {
		step = stepName(stepID)
	}
	if arrayTask != wire.NoVal {
		fmt.Fprintf(c.stdout, "Job step %d_%d.%s not found\n", jobID, arrayTask, step)
	} else {
		fmt.Fprintf(c.stdout, "Job step %d.%s not found\n", jobID, step)
	}
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// strtoul reads a leading decimal number as Slurm's (uint32_t)strtol does: leading blanks
// and a sign are allowed, no digits is 0, a number too long saturates before the cut to 32
// bits (strtoul64); the rest of s is returned.
func strtoul(s string) (uint64, string) {
	n, rest, _ := strtoul64(s)
	return uint64(uint32(n)), rest
}

// stepName is a step number as Slurm prints it: batch, extern, TDB (pending) or the number.
func stepName(id uint32) string {
	switch id {
	case stepBatch:
		return "batch"
	case stepExtern:
		return "extern"
	case stepPending:
		return "TDB"
	}
	return strconv.FormatUint(uint64(id), 10)
}

// sprintStep renders one step as Slurm's slurm_sprint_job_step_info does, with the lines
// Orbit's steps can have (no CPU frequency request, TRES-per-X or reserved ports).
func (c *cli) sprintStep(s *wire.StepInfo) string {
	r := newRecord(c.oneLiner)
	if s.ArrayJobID != 0 && s.ArrayTaskID != wire.NoVal {
		r.f("StepId=%d_%d.%s ", s.ArrayJobID, s.ArrayTaskID, stepName(s.StepID))
	} else {
		r.f("StepId=%d.%s ", s.JobID, stepName(s.StepID))
	}
	limit := "UNLIMITED"
	if s.TimeLimit != wire.Infinite {
		limit = slurmtime.FormatTimeLimit(s.TimeLimit)
	}
	r.f("UserId=%d StartTime=%s TimeLimit=%s", s.UserID, c.timeStr(s.StartTime), limit)
	r.nl()
	nodes, _ := hostlist.Expand(s.NodeList)
	r.f("State=RUNNING Partition=%s NodeList=%s", s.Partition, hostlist.Compress(nodes))
	r.nl()
	r.f("Nodes=%d CPUs=%d Tasks=%d Name=%s Network=(null)", len(nodes), s.NumCPUs, s.NumTasks, nullStr(s.Name))
	r.nl()
	if s.StepID == stepBatch {
		// The batch step holds no TRES of its own in Slurm 22.05.
		r.s("TRES=(null)")
	} else {
		// Orbit's srun takes no step memory (--mem for a step): Slurm prints mem=0 then.
		r.f("TRES=cpu=%d,mem=0,node=%d", s.NumCPUs, len(nodes))
	}
	r.nl()
	r.s("ResvPorts=(null)")
	r.nl()
	r.s("CPUFreqReq=Default")
	if s.Dist != "" {
		r.f(" Dist=%s", s.Dist)
	}
	r.nl()
	r.f("SrunHost:Pid=%s:%d", nullStr(s.SrunHost), s.SrunPid)
	return r.end()
}
