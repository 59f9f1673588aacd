package main

import (
	"net"
	"os"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// showSlurmd is `scontrol show slurmd` (Slurm's _print_slurmd): the status of the slurmd on
// this machine, as a multiple-slurmd build finds it: the node SLURMD_NODENAME names, else
// localhost at SlurmdPort.
func (c *cli) showSlurmd(_ string, _ *string, _ []string) {
	addr := net.JoinHostPort("localhost", strconv.Itoa(int(c.client().Conf.SlurmdPort)))
	req := &wire.DaemonStatusRequest{}
	if name := os.Getenv("SLURMD_NODENAME"); name != "" {
		if n := c.localNode(name); n != nil {
			addr, req.NodeName = c.nodeAddr(n), n.Name
		}
	}
	var s wire.DaemonStatusReply
	if err := c.callSlurmd(addr, wire.MsgDaemonStatus, req, &s); err != nil {
		e := strerror.Text(err) // write_batch_script.go
		c.errorf("slurm_slurmd_info: %s", e)
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("slurm_load_slurmd_status: %s\n", e)
		}
		return
	}
	when := func(t int64) string { return slurmtime.FormatUnix(t, time.Local) }
	c.printf("Active Steps             = %s\n", s.StepList)
	c.printf("Actual CPUs              = %d\n", s.CPUs)
	c.printf("Actual Boards            = %d\n", s.Boards)
	c.printf("Actual sockets           = %d\n", s.Sockets)
	c.printf("Actual cores             = %d\n", s.Cores)
	c.printf("Actual threads per core  = %d\n", s.Threads)
	c.printf("Actual real memory       = %d MB\n", s.RealMemory)
	c.printf("Actual temp disk space   = %d MB\n", s.TmpDisk)
	c.printf("Boot time                = %s\n", when(s.Booted))
	c.printf("Hostname                 = %s\n", s.Hostname)
	if s.LastCtldMsg != 0 {
		c.printf("Last slurmctld msg time  = %s\n", when(s.LastCtldMsg))
	} else {
		c.printf("Last slurmctld msg time  = NONE\n")
	}
	c.printf("Slurmd PID               = %d\n", s.Pid)
	c.printf("Slurmd Debug             = %d\n", s.Debug)
	c.printf("Slurmd Logfile           = %s\n", s.LogFile)
	c.printf("Version                  = %s\n", s.Version)
}
