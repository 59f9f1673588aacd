package cmdclient

import (
	"errors"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestUnreachable: a waiting srun or salloc waits on through a controller that cannot be
// reached or whose connection broke mid-call (killed while answering), and stops on an
// answer.
func TestUnreachable(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"no error", nil, false},
		{"cannot connect", NewError(ErrnoControllerConnection), true},
		{"connection broke before the answer", AsError(wire.NewError(wire.ErrnoReceive)), true},
		{"could not send", wire.NewError(wire.ErrnoSend), true},
		{"an answer", AsError(wire.NewError(wire.ErrnoAccessDenied)), false},
		{"not a Slurm error", errors.New("dial tcp: refused"), true},
	} {
		if got := Unreachable(c.err); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
