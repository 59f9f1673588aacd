package main

import (
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol create, update and delete of reservations (Slurm's scontrol_create_res,
// scontrol_update_res and _delete_it). The controller's refusals come back as Slurm errnos
// and are printed as slurm_perror does; like it, they are printed even with -Q.

// Errnos after which scontrol explains how it picks a partition.
const (
	errnoRequestedNodeConfigUnavailable = 2014 // ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE
	errnoNodesBusy                      = 2016 // ESLURM_NODES_BUSY
)

// newResvEnv is what reading reservation options needs from outside them, slurm.conf read
// only if an option asks.
func (c *cli) newResvEnv() resvEnv {
	return resvEnv{
		now: time.Now(),
		coreCntOK: func() bool {
			conf := c.client().Conf
			switch strings.ToLower(conf.SelectType) {
			case "select/cons_res", "select/cons_tres":
				return true
			case "select/cray_aries":
				p := strings.ToUpper(conf.SelectTypeParameters)
				return strings.Contains(p, "OTHER_CONS_RES") || strings.Contains(p, "OTHER_CONS_TRES")
			}
			return false
		},
		tresKnown: func(name string) bool {
			// Slurm asks the controller's association manager, whose list is the default
			// TRES and those AccountingStorageTRES adds; Orbit's is the same list.
			extra, _ := c.client().Conf.Get("AccountingStorageTRES")
			known := slices.Concat(defaultTRES, strings.Split(extra, ","))
			return slices.ContainsFunc(known, func(t string) bool { return t != "" && strings.EqualFold(t, name) })
		},
	}
}

// printLines writes a refused parse's lines to stderr.
func (c *cli) printLines(lines []string) {
	for _, l := range lines {
		c.eprintf("%s\n", l)
	}
}

// createResv is `scontrol create reservation ...` (scontrol_create_res).
func (c *cli) createResv(args []string) {
	r, perr := parseResvOptions(args, "No reservation created.", c.newResvEnv())
	if perr != nil {
		c.exitCode = 1
		c.printLines(perr.lines)
		return
	}
	if line := r.checkCreate(); line != "" {
		c.exitCode = 1
		c.eprintf("%s\n", line)
		return
	}
	var rep wire.CreateResvReply
	if e := c.call(wire.MsgCreateResv, r.desc(), &rep); e != nil {
		c.exitCode = 1
		c.eprintf("Error creating the reservation: %s\n", e.Text)
		if e.Errno == errnoRequestedNodeConfigUnavailable || e.Errno == errnoNodesBusy {
			c.printf("Note, unless nodes are directly requested a reservation must exist in a single partition.\n" +
				"If no partition is requested the default partition is assumed.\n")
		}
		return
	}
	c.printf("Reservation created: %s\n", rep.Name)
}

// updateResv is `scontrol update reservation=NAME ...` (scontrol_update_res and the
// "slurm_update error" line _update_it adds after a failure, with the errno then current:
// a parse's own, or "No error").
func (c *cli) updateResv(args []string) {
	r, perr := parseResvOptions(args, "No reservation update.", c.newResvEnv())
	if perr != nil {
		c.exitCode = 1
		c.printLines(perr.lines)
		c.eprintf("slurm_update error: %s\n", perr.errno)
		return
	}
	if r.name == nil {
		c.exitCode = 1
		c.errorf("Reservation must be given.  No reservation update.")
		return
	}
	if e := c.call(wire.MsgUpdateResv, (*wire.UpdateResvRequest)(r.desc()), nil); e != nil {
		c.exitCode = 1
		c.eprintf("Error updating the reservation: %s\n", e.Text)
		c.eprintf("slurm_update error: %s\n", e.Text)
		return
	}
	c.printf("Reservation updated.\n")
}

// deleteResv is `scontrol delete reservation=NAME` (or `delete reservation NAME`); arg is
// the first word as typed, which the error line repeats.
func (c *cli) deleteResv(arg, name string) {
	if e := c.call(wire.MsgDeleteResv, &wire.DeleteResvRequest{Name: name}, nil); e != nil {
		c.exitCode = 1
		// Slurm builds the prefix in a 64-byte buffer.
		prefix := "delete_reservation " + arg
		if len(prefix) > 63 {
			prefix = prefix[:63]
		}
		c.eprintf("%s: %s\n", prefix, e.Text)
	}
}
