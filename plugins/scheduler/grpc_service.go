package scheduler

import (
	"context"
	"errors"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// serviceName is the gRPC service a plugin serves. The service is described by hand (no
// protoc): unary methods whose messages are the contract's Go types in msgpack. Sync,
// Update and Schedule are the contract's calls; UpdateSchedule is Update and Schedule in one
// round trip (a plugin built before it answers Unimplemented, and the host falls back).
const serviceName = "orbit.scheduler.v1.Scheduler"

// The messages of the calls. Each wraps the contract type so a field can be added to a
// call without changing the contract.
type (
	syncRequest struct {
		State State `codec:"state"`
	}
	updateRequest struct {
		Delta Delta `codec:"delta"`
	}
	scheduleRequest struct {
		Now int64 `codec:"now"`
	}
	scheduleReply struct {
		Plan Plan `codec:"plan"`
	}
	updateScheduleRequest struct {
		Delta Delta `codec:"delta"`
		Now   int64 `codec:"now"`
	}
	empty struct{}
)

// serviceDesc is the hand-written descriptor grpc.Server.RegisterService takes.
var serviceDesc = grpc.ServiceDesc{
	ServiceName: serviceName,
	HandlerType: (*Scheduler)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "Sync", Handler: handleSync},
		{MethodName: "Update", Handler: handleUpdate},
		{MethodName: "Schedule", Handler: handleSchedule},
		{MethodName: "UpdateSchedule", Handler: handleUpdateSchedule},
	},
	Streams:  []grpc.StreamDesc{},
	Metadata: "orbit/plugins/scheduler",
}

// unary runs one call through the server's interceptor, as generated code does.
func unary(ctx context.Context, srv any, method string, req any, icpt grpc.UnaryServerInterceptor, call func(context.Context, any) (any, error)) (any, error) {
	if icpt == nil {
		return call(ctx, req)
	}
	return icpt(ctx, req, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + serviceName + "/" + method}, call)
}

func handleSync(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
	req := new(syncRequest)
	if err := dec(req); err != nil {
		return nil, err
	}
	return unary(ctx, srv, "Sync", req, icpt, func(ctx context.Context, r any) (any, error) {
		return &empty{}, toStatus(srv.(Scheduler).Sync(ctx, r.(*syncRequest).State))
	})
}

func handleUpdate(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
	req := new(updateRequest)
	if err := dec(req); err != nil {
		return nil, err
	}
	return unary(ctx, srv, "Update", req, icpt, func(ctx context.Context, r any) (any, error) {
		return &empty{}, toStatus(srv.(Scheduler).Update(ctx, r.(*updateRequest).Delta))
	})
}

func handleSchedule(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
	req := new(scheduleRequest)
	if err := dec(req); err != nil {
		return nil, err
	}
	return unary(ctx, srv, "Schedule", req, icpt, func(ctx context.Context, r any) (any, error) {
		p, err := srv.(Scheduler).Schedule(ctx, r.(*scheduleRequest).Now)
		if err != nil {
			return nil, toStatus(err)
		}
		return &scheduleReply{Plan: p}, nil
	})
}

func handleUpdateSchedule(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
	req := new(updateScheduleRequest)
	if err := dec(req); err != nil {
		return nil, err
	}
	return unary(ctx, srv, "UpdateSchedule", req, icpt, func(ctx context.Context, r any) (any, error) {
		us := r.(*updateScheduleRequest)
		sc := srv.(Scheduler)
		if err := sc.Update(ctx, us.Delta); err != nil {
			return nil, toStatus(err)
		}
		p, err := sc.Schedule(ctx, us.Now)
		if err != nil {
			return nil, toStatus(err)
		}
		return &scheduleReply{Plan: p}, nil
	})
}

// toStatus carries ErrResync across the wire as FailedPrecondition, so the host can tell "send
// me a full state" from a failure.
func toStatus(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrResync):
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return status.Error(codes.Unknown, err.Error())
}

// fromStatus turns a call's error back into the contract's: ErrResync, or the error as is.
func fromStatus(err error) error {
	if err == nil {
		return nil
	}
	if status.Code(err) == codes.FailedPrecondition {
		return ErrResync
	}
	return err
}

// GRPCPlugin is the go-plugin glue: in a plugin it registers Impl's service; in the host (Impl
// nil) it builds the Client. Only gRPC is offered.
type GRPCPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Scheduler
}

// GRPCServer registers the plugin's Scheduler.
func (p *GRPCPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("scheduler: no implementation to serve")
	}
	s.RegisterService(&serviceDesc, p.Impl)
	return nil
}

// GRPCClient returns the host's Scheduler over conn.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &Client{conn: conn}, nil
}
