package main

import (
	"context"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// client returns the controller client, loading slurm.conf on first use (commands that need
// no controller never read it, as in Slurm).
func (c *cli) client() *cmdclient.Client {
	if c.cl == nil {
		cl, err := cmdclient.Load("scontrol", "")
		if err != nil {
			c.stdout.Flush()
			cmdclient.Fatal(c.stderr, "scontrol", err)
		}
		c.cl = cl
	}
	return c.cl
}

// call makes one request to the controller, bounded as Slurm's commands are (connect
// retries, then MessageTimeout for the answer).
func (c *cli) call(t wire.MsgType, req, resp any) *cmdclient.Error {
	cl := c.client()
	ctx, cancel := context.WithTimeout(context.Background(),
		2*cl.MessageTimeout+time.Duration(cl.ConnectRetries)*time.Second)
	defer cancel()
	if err := cl.Call(ctx, t, req, resp); err != nil {
		return cmdclient.AsError(err)
	}
	return nil
}

// perror prints "prefix: text" as Slurm's slurm_perror does, unless -Q.
func (c *cli) perror(prefix string, e *cmdclient.Error) {
	c.exitCode = 1
	if c.quiet != 1 {
		c.eprintf("%s: %s\n", prefix, e.Text)
	}
}
