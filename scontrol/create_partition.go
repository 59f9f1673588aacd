package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdCreate is `scontrol create`: the first argument naming an entity decides what is made
// (Slurm's _create_it scans for it, as a reservation's options include PartitionName=).
func (c *cli) cmdCreate(argv []string) {
	if !c.hasArgs(argv) {
		return
	}
	args := argv[1:]
	for _, a := range args {
		tag, _, _ := strings.Cut(a, "=")
		switch {
		case abbrev(tag, "NodeName", 3):
			c.errorf("create of nodes is not supported by Orbit yet (dynamic nodes)")
			c.exitCode = 1
			return
		case abbrev(tag, "PartitionName", 3):
			c.partitionRequest(args, true)
			return
		case abbrev(tag, "ReservationName", 3):
			c.createResv(args) // resv_commands.go
			return
		}
	}
	c.exitCode = 1
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	c.errorf("Invalid creation entity: %s", first)
}

// createPartition sends a parsed `create PartitionName=` request (scontrol_create_part).
func (c *cli) createPartition(req *wire.UpdatePartitionRequest) {
	if req.Name == "" {
		return // Slurm sends no name, and its controller makes nothing of it: no word, exit 0
	}
	if strings.EqualFold(req.Name, "default") {
		c.exitCode = 1
		c.errorf("PartitionName cannot be \"DEFAULT\".")
		return
	}
	if e := c.call(wire.MsgCreatePartition, (*wire.CreatePartitionRequest)(req), nil); e != nil {
		c.exitCode = 1
		c.perror("Error creating the partition", e)
	}
}

// cmdDelete is `scontrol delete ENTITY=ID` or `delete ENTITY ID` (Slurm's _delete_it).
func (c *cli) cmdDelete(argv []string) {
	if !c.hasArgs(argv) {
		return
	}
	args := argv[1:]
	var tag, val string
	switch len(args) {
	case 1:
		var ok bool
		if tag, val, ok = strings.Cut(args[0], "="); !ok {
			c.errorf("Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'")
			c.exitCode = 1
			return
		}
	case 2:
		tag, val = args[0], args[1]
	default:
		c.errorf("Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'")
		c.exitCode = 1
		return
	}
	switch {
	case abbrev(tag, "NodeName", 3):
		c.errorf("delete of nodes is not supported by Orbit yet (dynamic nodes)")
		c.exitCode = 1
	case abbrev(tag, "PartitionName", 3):
		if val == "" {
			return // as for create: nothing named, nothing done, exit 0
		}
		if e := c.call(wire.MsgDeletePartition, &wire.DeletePartitionRequest{Name: val}, nil); e != nil {
			c.perror("delete_partition "+args[0], e)
			c.exitCode = 1
		}
	case abbrev(tag, "ReservationName", 3):
		c.deleteResv(args[0], val) // resv_commands.go
	default:
		c.exitCode = 1
		c.eprintf("Invalid deletion entity: %s\n", args[0])
	}
}
