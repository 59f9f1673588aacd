package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Commands about the controller itself: ping, show config, reconfigure, shutdown.

// pingLines pings every configured controller and returns Slurm's status lines
// ("Slurmctld(primary) at vm is UP") and whether all answered.
func (c *cli) pingLines() ([]string, bool) {
	cl := c.client()
	all := true
	var lines []string
	for i, h := range cl.Conf.SlurmctldHosts {
		role := "primary"
		if i > 0 {
			role = "backup"
			if len(cl.Conf.SlurmctldHosts) > 2 {
				role = fmt.Sprintf("backup%d", i)
			}
		}
		one := *cl
		one.Addrs = []string{cl.Addrs[i]}
		one.ConnectRetries = 1
		ctx, cancel := context.WithTimeout(context.Background(), cl.MessageTimeout+time.Second)
		err := one.Call(ctx, wire.MsgPing, &wire.Ping{}, &wire.PingReply{})
		cancel()
		state := "UP"
		if err != nil {
			state, all = "DOWN", false
		}
		lines = append(lines, fmt.Sprintf("Slurmctld(%s) at %s is %s", role, h.Name, state))
	}
	return lines, all
}

// cmdPing is `scontrol ping`.
func (c *cli) cmdPing(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	lines, ok := c.pingLines()
	for _, l := range lines {
		c.stdout.WriteString(l + "\n")
	}
	if !ok {
		c.exitCode = 1
	}
}

// showConfig is `scontrol show config`: the controller's rendering, then the ping lines.
func (c *cli) showConfig(_ string, _ *string, _ []string) {
	cl := c.client()
	req := &wire.BuildInfoRequest{}
	if data, err := os.ReadFile(cl.ConfPath); err == nil {
		sum := sha256.Sum256(data)
		req.ConfHash = sum[:]
	}
	var rep wire.BuildInfoReply
	if e := c.call(wire.MsgBuildInfo, req, &rep); e != nil {
		c.perror("slurm_load_ctl_conf error", e)
		return
	}
	c.stdout.WriteString(rep.Text)
	lines, _ := c.pingLines()
	for _, l := range lines {
		c.stdout.WriteString(l + "\n")
	}
}

// cmdReconfigure is `scontrol reconfigure`.
func (c *cli) cmdReconfigure(argv []string) {
	if len(argv) > 2 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	if e := c.call(wire.MsgReconfigure, &wire.ReconfigureRequest{}, nil); e != nil {
		c.perror("slurm_reconfigure error", e)
	}
}

// cmdShutdown is `scontrol shutdown [slurmctld|controller]`.
func (c *cli) cmdShutdown(argv []string) {
	if len(argv) > 2 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
		return
	}
	req := &wire.ShutdownRequest{}
	if len(argv) == 2 {
		if !(keywordIs(argv[1], "slurmctld", len(argv[1])) || keywordIs(argv[1], "controller", len(argv[1]))) {
			c.exitCode = 1
			c.eprintf("invalid shutdown argument:%s\n", argv[1])
			return
		}
		req.ControllerOnly = true
	}
	if e := c.call(wire.MsgShutdown, req, nil); e != nil {
		c.perror("slurm_shutdown error", e)
	}
}

var _ = cmdclient.NewError
