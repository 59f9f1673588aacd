package main

import (
	"context"
	"io"
	"time"

	"github.com/orbit-hpc/orbit/compat/openapi"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// dumpData is `squeue --json` / `--yaml` (Slurm's dump_data): every job the controller
// knows, finished ones included (SHOW_ALL|SHOW_DETAIL), in the openapi/v0.0.38 layout.
// As in Slurm 22.05 no filter, format or sort option applies, and the exit status is 0
// even when the controller cannot be reached (the failure is listed under "errors").
func dumpData(mime string, stdout, stderr io.Writer) int {
	c, err := cmdclient.Load("squeue", "")
	if err != nil {
		cmdclient.Fatal(stderr, "squeue", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	jctx := openapi.JobContext{ClusterName: c.Conf.ClusterName, Nodes: map[string]wire.NodeInfo{}}
	var rep wire.JobInfoReply
	var resp *openapi.Value
	if err := c.Call(ctx, wire.MsgJobInfo, &wire.JobInfoRequest{ShowAll: true}, &rep); err != nil {
		resp = openapi.Jobs(nil, jctx)
		// slurm_load_jobs returns SLURM_ERROR, which resp_error reports as is.
		openapi.AddError(resp, -1, "Unspecified error", "slurm_load_jobs", "Failed while looking for jobs")
	} else {
		// The node table gives job_resources its socket/core layout.
		var nodes wire.NodeInfoReply
		if c.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &nodes) == nil {
			for _, n := range nodes.Nodes {
				jctx.Nodes[n.Name] = n
			}
		}
		resp = openapi.Jobs(rep.Jobs, jctx)
	}
	if mime == "yaml" {
		io.WriteString(stdout, openapi.YAML(resp))
	} else {
		io.WriteString(stdout, openapi.JSON(resp))
	}
	return 0
}
