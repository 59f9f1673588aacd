package scheduler

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Client is the host side of a scheduler plugin: a Scheduler whose calls go to the plugin
// process over gRPC. go-plugin builds it (Dispense); its errors are the contract's (ErrResync)
// or transport errors, which mean the plugin is gone or did not answer in time.
type Client struct {
	conn *grpc.ClientConn
	// twoCalls: the plugin has no UpdateSchedule (built before it): Update, then Schedule.
	twoCalls atomic.Bool
}

var (
	_ Scheduler       = (*Client)(nil)
	_ UpdateScheduler = (*Client)(nil)
)

// NewClient returns a Client on an established connection to a plugin's scheduler service
// (tests; the host gets its Client from go-plugin).
func NewClient(conn *grpc.ClientConn) *Client { return &Client{conn: conn} }

func (c *Client) invoke(ctx context.Context, method string, req, reply any) error {
	return fromStatus(c.invokeRaw(ctx, method, req, reply))
}

func (c *Client) invokeRaw(ctx context.Context, method string, req, reply any) error {
	return c.conn.Invoke(ctx, "/"+serviceName+"/"+method, req, reply, grpc.CallContentSubtype(codecName))
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

// UpdateSchedule sends d and asks for a plan in one round trip; a plugin that does not know
// the call gets Update and Schedule, now and from then on.
func (c *Client) UpdateSchedule(ctx context.Context, d Delta, now int64) (Plan, error) {
	if !c.twoCalls.Load() {
		var r scheduleReply
		err := c.invokeRaw(ctx, "UpdateSchedule", &updateScheduleRequest{Delta: d, Now: now}, &r)
		if status.Code(err) != codes.Unimplemented {
			if err != nil {
				return Plan{}, fromStatus(err)
			}
			return r.Plan, nil
		}
		c.twoCalls.Store(true)
	}
	if err := c.Update(ctx, d); err != nil {
		return Plan{}, err
	}
	return c.Schedule(ctx, now)
}
