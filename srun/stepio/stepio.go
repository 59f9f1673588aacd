// Package stepio is the I/O stream between srun and the nodes running a step's tasks, in
// place of Slurm's io protocol: srun listens on a TCP port (SLURM_SRUN_COMM_PORT's
// neighbour, as Slurm's srun does), each node running tasks of the step connects back once,
// proves the connection is the launch's with the random key srun put in its (authenticated)
// launch request, then sends the tasks' stdout and stderr as they come and each task's wait
// status when it ends (output may follow an exit: srun reads until the node closes); srun
// sends its stdin to the nodes of the tasks that read it. The node end is the step's
// slurmstepd, so the stream outlives a slurmd restart. One connection carries every task
// of a node, so frames name the task (its global rank); a slurmstepd running several
// nodes' shares of the step (an emulating slurmd) carries them all on one connection
// (Join, Done; mux.go), so srun accepts one connection per slurmstepd, not per node.
//
// A frame is: type (1 byte), rank (uint32), length (uint32), then length bytes, big-endian.
//
// It imports only the standard library: srun and slurmd both link it.
package stepio

import (
	"bufio"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Frame types.
const (
	Hello    byte = 1 // node → srun: data is the launch's I/O key, rank the node id
	Stdout   byte = 2 // node → srun: task output
	Stderr   byte = 3 // node → srun
	Exit     byte = 4 // node → srun: data is the task's wait status (uint32)
	Stdin    byte = 5 // srun → node: input for task rank
	StdinEOF byte = 6 // srun → node: end of input
	Failed   byte = 7 // node → srun: the tasks could not start; data is the reason
	// Join says the connection also carries node id rank's tasks (a slurmstepd running
	// several nodes' shares of the step connects once: Hello for the first node, Join for
	// each other one; see Mux). Data is empty.
	Join byte = 8
	// Done says node id rank's share has ended: srun treats it as it treats the end of a
	// one-node connection (tasks of the node without an Exit are lost). Data is empty.
	Done byte = 9
	// Cancelled says the step was cancelled on node id rank (scancel, the time limit, or
	// srun's own abort): Slurm's srun then says it waits for the step to end. Data is empty,
	// or CancelStepTimeLimit when the step's own time limit (srun --time in a job) ended it,
	// which Slurm's srun hears as its tasks' ends only.
	Cancelled byte = 10
	// CancelStepTimeLimit is a Cancelled frame's data when the step's own time limit ended it.
	CancelStepTimeLimit = "step_time_limit"
	// PMIPut carries pairs of the step's PMI key-value space (srun --mpi=pmi2), encoded by
	// AppendPair: node → srun, the puts of node id rank's tasks since their last fence, sent
	// before its PMIFence; srun → node, every node's puts of the fence, before the PMIFence
	// frames that complete it: srun starts each fence's answer on a connection with at least
	// one PMIPut (empty when no node put anything), so the receiver knows a new fence begins.
	PMIPut byte = 11
	// PMIFence: node → srun, every task of node id rank has entered the fence; srun → node,
	// the fence is complete for node id rank (the PMIPut frames before it hold the pairs).
	// Data is empty.
	PMIFence byte = 12
	// PMIAbort: node → srun, task rank asked PMI to abort the step (MPI_Abort); data is its
	// exit code (uint32).
	PMIAbort byte = 13
	// Winsize: srun → node, srun's terminal changed size (srun --pty); rank is the node id,
	// data the rows and columns (two uint16).
	Winsize byte = 14
	// Pid: node → srun, task rank started as process data (uint32), sent for a parallel
	// debug launch (srun --debugger-test), whose tasks wait stopped at their exec.
	Pid byte = 15
)

// MaxData bounds one frame's data, so a peer cannot make the other allocate without limit.
const MaxData = 1 << 20

const headerLen = 9

// Frame is one unit of the stream.
type Frame struct {
	Type byte
	Rank uint32
	Data []byte
}

// ErrFrame reports a frame that breaks the protocol.
var ErrFrame = errors.New("stepio: malformed frame")

// Writer writes frames; it is safe for concurrent use (several tasks share a connection).
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sends one frame; data longer than MaxData is split.
func (w *Writer) Write(typ byte, rank uint32, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		n := min(len(data), MaxData)
		var h [headerLen]byte
		h[0] = typ
		binary.BigEndian.PutUint32(h[1:], rank)
		binary.BigEndian.PutUint32(h[5:], uint32(n))
		if _, err := w.w.Write(append(h[:], data[:n]...)); err != nil {
			return err
		}
		data = data[n:]
		if len(data) == 0 {
			return nil
		}
	}
}

// TaskWriter is an io.Writer that sends what a task writes as frames of typ for rank.
func (w *Writer) TaskWriter(typ byte, rank uint32) io.Writer {
	return taskWriter{w: w, typ: typ, rank: rank}
}

type taskWriter struct {
	w    *Writer
	typ  byte
	rank uint32
}

func (t taskWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := t.w.Write(t.typ, t.rank, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Reader reads frames.
type Reader struct {
	r *bufio.Reader
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReader(r)} }

// Read returns the next frame; io.EOF at a clean end between frames.
func (r *Reader) Read() (Frame, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r.r, h[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return Frame{}, fmt.Errorf("%w: truncated header", ErrFrame)
		}
		return Frame{}, err
	}
	f := Frame{Type: h[0], Rank: binary.BigEndian.Uint32(h[1:])}
	if f.Type < Hello || f.Type > Pid {
		return Frame{}, fmt.Errorf("%w: unknown type %d", ErrFrame, f.Type)
	}
	n := binary.BigEndian.Uint32(h[5:])
	if n > MaxData {
		return Frame{}, fmt.Errorf("%w: %d bytes of data, at most %d", ErrFrame, n, MaxData)
	}
	f.Data = make([]byte, n)
	if _, err := io.ReadFull(r.r, f.Data); err != nil {
		return Frame{}, fmt.Errorf("%w: truncated data", ErrFrame)
	}
	return f, nil
}

// KeyEqual compares I/O keys in constant time.
func KeyEqual(a, b []byte) bool {
	return len(a) > 0 && subtle.ConstantTimeCompare(a, b) == 1
}

// ExitData encodes a wait status for an Exit frame.
func ExitData(status uint32) []byte { return binary.BigEndian.AppendUint32(nil, status) }

// ExitStatus decodes an Exit frame's data.
func ExitStatus(data []byte) (uint32, error) {
	if len(data) != 4 {
		return 0, fmt.Errorf("%w: exit status of %d bytes", ErrFrame, len(data))
	}
	return binary.BigEndian.Uint32(data), nil
}

// WinsizeData encodes a terminal size for a Winsize frame.
func WinsizeData(rows, cols uint16) []byte {
	return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, rows), cols)
}

// WinsizeOf decodes a Winsize frame's data.
func WinsizeOf(data []byte) (rows, cols uint16, ok bool) {
	if len(data) != 4 {
		return 0, 0, false
	}
	return binary.BigEndian.Uint16(data), binary.BigEndian.Uint16(data[2:]), true
}
