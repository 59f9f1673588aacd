package scheduler

import (
	"context"

	"google.golang.org/grpc"
)

// Client is the host side of a scheduler plugin: a Scheduler whose calls go to the plugin
// process over gRPC. go-plugin builds it (Dispense); its errors are the contract's (ErrResync)
// or transport errors, which mean the plugin is gone or did not answer in time.
type Client struct {
	conn *grpc.ClientConn
}

var _ Scheduler = (*Client)(nil)

// NewClient returns a Client on an established connection to a plugin's scheduler service
// (tests; the host gets its Client from go-plugin).
func NewClient(conn *grpc.ClientConn) *Client { return &Client{conn: conn} }

func (c *Client) invoke(ctx context.Context, method string, req, reply any) error {
	err := c.conn.Invoke(ctx, "/"+serviceName+"/"+method, req, reply, grpc.CallContentSubtype(codecName))
	return fromStatus(err)
}

// Sync sends the whole state.
func (c *Client) Sync(ctx context.Context, s State) error {
	return c.invoke(ctx, "Sync", &syncRequest{State: s}, &empty{})
}

// Update sends what changed since the last Sync or Update.
func (c *Client) Update(ctx context.Context, d Delta) error {
	return c.invoke(ctx, "Update", &updateRequest{Delta: d}, &empty{})
}

// Schedule asks for one plan.
func (c *Client) Schedule(ctx context.Context, now int64) (Plan, error) {
	var r scheduleReply
	if err := c.invoke(ctx, "Schedule", &scheduleRequest{Now: now}, &r); err != nil {
		return Plan{}, err
	}
	return r.Plan, nil
}
