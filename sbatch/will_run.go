package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// willRun is sbatch --test-only: it asks the controller when and where the job would start
// and submits nothing. Like Slurm (sbatch.c, slurm_job_will_run) the answer is an info line
// on stderr and exit 0; a refusal prints the controller's message, then slurm_perror's
// "allocation failure: TEXT" (no command prefix), and exits 1.
func willRun(ctx context.Context, c *cmdclient.Client, cmd string, desc *wire.JobDesc, env []string, stderr io.Writer) int {
	var rep wire.JobWillRunReply
	if err := c.Call(ctx, wire.MsgJobWillRun, &wire.JobWillRunRequest{Job: *desc}, &rep); err != nil {
		we := cmdclient.AsError(err)
		if we.UserMsg != "" {
			fmt.Fprintf(stderr, "%s: error: %s\n", cmd, we.UserMsg)
		}
		fmt.Fprintf(stderr, "allocation failure: %s\n", we.Text)
		return 1
	}
	tf, _ := jobspec.Lookup(env, "SLURM_TIME_FORMAT")
	fmt.Fprint(stderr, willRunText(cmd, &rep, tf, stderr))
	return 0
}

// willRunText is the info line (and the job_submit message before it, if any) for rep.
func willRunText(cmd string, rep *wire.JobWillRunReply, timeFormat string, stderr io.Writer) string {
	f, err := slurmtime.ParseTimeFormat(timeFormat)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", cmd, err)
	}
	s := ""
	if rep.UserMessage != "" {
		s = fmt.Sprintf("%s: %s\n", cmd, rep.UserMessage)
	}
	start := time.Unix(rep.StartTime, 0)
	return s + fmt.Sprintf("%s: Job %d to start at %s using %d processors on nodes %s in partition %s\n",
		cmd, rep.JobID, f.Format(start, time.Now()), rep.ProcCnt, rep.NodeList, rep.Partition)
}
