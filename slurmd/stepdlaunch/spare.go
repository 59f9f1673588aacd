package stepdlaunch

import (
	"errors"
	"io"
	"strings"
)

// A spare slurmstepd is started by slurmd ahead of need (`slurmstepd --spare`), so a launch
// does not wait for a process to start: slurmd hands it one launch on its order pipe and
// starts the next spare in the background. It inherits the readiness pipe on ReadyFD, as
// any stepd, and the read end of the order pipe on OrderFD.

// SpareFlag is the command-line flag of a spare stepd.
const SpareFlag = "--spare"

// OrderFD is the file descriptor on which a spare stepd inherits the read end of its order
// pipe (os/exec's ExtraFiles[1]).
const OrderFD = 4

// Order is what a spare stepd is told to do: the mode and launch file it would otherwise
// have been started with, and the node it runs for (SLURMD_NODENAME).
type Order struct {
	Mode, Path, Node string
}

// EncodeOrder is o as written on the order pipe: its fields separated by NUL bytes (no
// field can hold one), the pipe then closed.
func EncodeOrder(o Order) []byte {
	return []byte(o.Mode + "\x00" + o.Path + "\x00" + o.Node)
}

// ReadOrder reads a spare's order until the pipe closes. io.EOF with nothing read means
// slurmd closed the pipe without an order: it stopped, or dropped the spare.
func ReadOrder(r io.Reader) (Order, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return Order{}, err
	}
	if len(b) == 0 {
		return Order{}, io.EOF
	}
	f := strings.Split(string(b), "\x00")
	if len(f) != 3 || (f[0] != "--batch" && f[0] != "--step") || f[1] == "" {
		return Order{}, errors.New("malformed spare order")
	}
	return Order{Mode: f[0], Path: f[1], Node: f[2]}, nil
}
