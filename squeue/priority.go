package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// squeue -P/--priority (Slurm's print_jobs_array with priority_flag): a job is listed once
// for each partition of its partition list that -p selects, as a row of that partition, and
// the priority sort orders rows by that partition's PriorityTier before the job's priority.
// A pending job submitted to several partitions is so seen in each, in the order its
// partitions would be tried.

// loadPartTiers reads each partition's PriorityTier for -P; false after an error.
func loadPartTiers(c *cmdclient.Client, p *params, stderr io.Writer) bool {
	if !p.priority {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	var rep wire.NodeInfoReply
	if err := c.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		fmt.Fprintf(stderr, "slurm_load_partitions: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	p.partTiers = make(map[string]uint32, len(rep.Partitions))
	for _, part := range rep.Partitions {
		p.partTiers[part.Name] = uint32(part.PriorityTier)
	}
	return true
}

// eachPartitionRow calls add once for each partition of r's job that -p selects, with r as
// that partition's row; r's partition is restored after.
func (p *params) eachPartitionRow(r *format.JobRow, add func()) {
	list := r.Partition
	for _, name := range strings.Split(list, ",") {
		if len(p.parts) > 0 && !slices.Contains(p.parts, name) {
			continue
		}
		tier, ok := p.partTiers[name]
		if !ok {
			tier = 1 // Slurm's default for a partition it does not find
		}
		r.Partition, r.PartitionTier = name, tier
		add()
	}
	r.Partition, r.PartitionTier = list, 0
}
