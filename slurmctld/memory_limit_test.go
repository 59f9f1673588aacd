package main

import (
	"context"
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"testing"
)

// TestFollowLiveHeap_Default: with neither GOGC nor GOMEMLIMIT set, the controller keeps a
// soft memory limit above its live heap.
func TestFollowLiveHeap_Default(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	followLiveHeap(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if got := debug.SetMemoryLimit(-1); got == math.MaxInt64 || got < limitFloor {
		t.Fatalf("memory limit %d, want one above the live heap", got)
	}
}

// TestFollowLiveHeap_Operator: GOGC or GOMEMLIMIT in the environment leave the runtime's
// settings alone.
func TestFollowLiveHeap_Operator(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "100")
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			followLiveHeap(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
				t.Fatalf("memory limit %d with %s set, want none", got, env)
			}
		})
	}
}
