package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// handlePing serves MsgPing (scontrol ping, commands checking the controller is up).
func (c *Controller) handlePing(_ context.Context, req *wire.Request) (any, error) {
	p := req.Body.(*wire.Ping)
	return &wire.PingReply{Seq: p.Seq, SentNanos: p.SentNanos}, nil
}
