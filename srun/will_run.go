package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// testOnly is srun --test-only (Slurm's allocate_test): it asks the controller when and
// where the job would start, runs nothing and exits 0, printing "srun: Job N to start at
// TIME using C processors on nodes NODES in partition P" on stderr. A refusal prints the
// controller's message, then slurm_perror's "allocation failure: TEXT", and exits 1.
func testOnly(o *options, stderr io.Writer) int {
	c, err := cmdclient.Load("srun", "")
	if err != nil {
		cmdclient.Fatal(stderr, "srun", err)
	}
	if o.spec.ClustersSet {
		// Slurm's _allocate_test fails before asking the controller, with errno unset.
		io.WriteString(stderr, clusterLookupLine(o.spec, c))
		cmdclient.ClusterUnreachable(stderr, "srun", o.spec.Clusters, false)
		fmt.Fprintln(stderr, "allocation failure: No error")
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	var rep wire.JobWillRunReply
	if err := c.Call(ctx, wire.MsgJobWillRun, &wire.JobWillRunRequest{Job: jobDesc(o, o.timeLimit)}, &rep); err != nil {
		we := cmdclient.AsError(err)
		if we.UserMsg != "" {
			fmt.Fprintf(stderr, "srun: error: %s\n", we.UserMsg)
		}
		fmt.Fprintf(stderr, "allocation failure: %s\n", we.Text)
		return 1
	}
	f, err := slurmtime.ParseTimeFormat(os.Getenv("SLURM_TIME_FORMAT"))
	if err != nil {
		fmt.Fprintf(stderr, "srun: error: %v\n", err)
	}
	if rep.UserMessage != "" {
		fmt.Fprintf(stderr, "srun: %s\n", rep.UserMessage)
	}
	fmt.Fprintf(stderr, "srun: Job %d to start at %s using %d processors on nodes %s in partition %s\n",
		rep.JobID, f.Format(time.Unix(rep.StartTime, 0), time.Now()), rep.ProcCnt, rep.NodeList, rep.Partition)
	return 0
}

// clusterLookupLine is what srun -v says as it loads the accounting plugin to look -M's
// clusters up.
func clusterLookupLine(js *jobspec.JobSpec, c *cmdclient.Client) string {
	if js.Verbose <= 0 || js.Quiet {
		return ""
	}
	return cmdclient.AccountingPluginLine("srun", c.Conf)
}
