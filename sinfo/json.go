package main

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/openapi"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// dumpData is `sinfo --json` / `--yaml` (Slurm's dump_data): every node, with the
// partitions it belongs to, in the openapi/v0.0.38 layout. As in Slurm 22.05 no filter,
// format or sort option applies, and the exit status is 0 even when the controller cannot
// be reached (the failure is listed under "errors").
func dumpData(mime string, stdout, stderr io.Writer) int {
	c, err := cmdclient.Load("sinfo", "")
	if err != nil {
		cmdclient.Fatal(stderr, "sinfo", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	nctx := openapi.NodeContext{UserName: userName}
	var rep wire.NodeInfoReply
	var resp *openapi.Value
	if err := c.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		resp = openapi.Nodes([]wire.NodeInfo{}, nctx)
		// slurm_load_node returns SLURM_ERROR, which the nodes handler reports as is.
		resp.Set("errors", openapi.NewList())
		openapi.AddNodeError(resp, -1, "Unspecified error")
	} else {
		port := uint16(c.Conf.SlurmdPort)
		if port == 0 {
			port = 6818
		}
		for i := range rep.Nodes {
			if rep.Nodes[i].Port == 0 {
				rep.Nodes[i].Port = port
			}
		}
		resp = openapi.Nodes(rep.Nodes, nctx)
	}
	if mime == "yaml" {
		io.WriteString(stdout, openapi.YAML(resp))
	} else {
		io.WriteString(stdout, openapi.JSON(resp))
	}
	return 0
}

// userName is uid_to_string_or_null: the user's name, or "" when the uid has none.
func userName(uid uint32) string {
	u, err := userdb.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return ""
	}
	return u.Username
}
