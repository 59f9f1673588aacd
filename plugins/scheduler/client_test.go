package scheduler

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// recorder is a plugin's Scheduler that records the calls it gets and plans from the last
// delta's Seq; Update answers ErrResync for a delta whose Seq is 0.
type recorder struct {
	mu    sync.Mutex
	calls []string
	seq   uint64
}

func (r *recorder) note(c string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *recorder) Sync(context.Context, State) error { r.note("Sync"); return nil }

func (r *recorder) Update(_ context.Context, d Delta) error {
	r.note("Update")
	if d.Seq == 0 {
		return ErrResync
	}
	r.mu.Lock()
	r.seq = d.Seq
	r.mu.Unlock()
	return nil
}

func (r *recorder) Schedule(context.Context, int64) (Plan, error) {
	r.note("Schedule")
	r.mu.Lock()
	defer r.mu.Unlock()
	return Plan{Seq: r.seq}, nil
}

// serveOn serves impl with desc on a loopback socket and returns a Client connected to it,
// with the gRPC methods the server was called with.
func serveOn(t *testing.T, desc *grpc.ServiceDesc, impl Scheduler) (*Client, func() []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var methods []string
	srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		mu.Lock()
		methods = append(methods, info.FullMethod[len("/"+serviceName+"/"):])
		mu.Unlock()
		return h(ctx, req)
	}))
	srv.RegisterService(desc, impl)
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	conn, err := grpc.Dial(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return NewClient(conn), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(methods)
	}
}

// TestClient_UpdateScheduleOneRoundTrip checks that a delta and a plan take one call to a
// plugin that knows UpdateSchedule, and that an Update's ErrResync comes back as such with
// no plan made.
func TestClient_UpdateScheduleOneRoundTrip(t *testing.T) {
	r := &recorder{}
	c, methods := serveOn(t, &serviceDesc, r)
	ctx := context.Background()
	p, err := c.UpdateSchedule(ctx, Delta{Seq: 4}, 10)
	if err != nil || p.Seq != 4 {
		t.Fatalf("UpdateSchedule = %+v, %v; want the plan of seq 4", p, err)
	}
	if _, err := c.UpdateSchedule(ctx, Delta{}, 11); !errors.Is(err, ErrResync) {
		t.Fatalf("UpdateSchedule of a delta the mirror refuses: %v, want ErrResync", err)
	}
	if got, want := methods(), []string{"UpdateSchedule", "UpdateSchedule"}; !slices.Equal(got, want) {
		t.Fatalf("gRPC calls %v, want %v", got, want)
	}
	if want := []string{"Update", "Schedule", "Update"}; !slices.Equal(r.seen(), want) {
		t.Fatalf("plugin calls %v, want %v", r.seen(), want)
	}
}

// TestClient_UpdateScheduleOlderPlugin checks that a plugin built before UpdateSchedule
// (its service lacks the method) gets Update and Schedule, and that the client asks it in
// two calls from then on.
func TestClient_UpdateScheduleOlderPlugin(t *testing.T) {
	old := serviceDesc
	old.Methods = slices.DeleteFunc(slices.Clone(serviceDesc.Methods), func(m grpc.MethodDesc) bool {
		return m.MethodName == "UpdateSchedule"
	})
	r := &recorder{}
	c, methods := serveOn(t, &old, r)
	ctx := context.Background()
	for seq := uint64(1); seq <= 2; seq++ {
		p, err := c.UpdateSchedule(ctx, Delta{Seq: seq}, 10)
		if err != nil || p.Seq != seq {
			t.Fatalf("UpdateSchedule = %+v, %v; want the plan of seq %d", p, err, seq)
		}
	}
	// The refused call never reaches the interceptor: only the fallbacks are seen.
	if got, want := methods(), []string{"Update", "Schedule", "Update", "Schedule"}; !slices.Equal(got, want) {
		t.Fatalf("gRPC calls %v, want %v", got, want)
	}
}
