package main

import (
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// lockedBuffer is an output srun's relay prints to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRelay_OneConnectionForSeveralNodes: a slurmstepd carrying nodes 0 and 1 on one
// connection (Hello, Join) and node 2 on a one-node connection of its own (the older form):
// labelled output per task, stdin sent once per connection, a node whose share ends (Done)
// with a task that never exited has that task lost, and the other nodes' tasks are not.
func TestRelay_OneConnectionForSeveralNodes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	key := []byte("secret")
	step := &wire.StepCreateReply{JobID: 1, StepID: 0, NumTasks: 5, Nodes: []string{"n1", "n2", "n3"}, Tasks: []uint32{2, 2, 1}}
	var out, errOut lockedBuffer
	r := newRelay(ln, key, step, &out, &errOut, true, map[uint32]bool{0: true, 1: true, 2: true})
	go r.accept()
	go r.forwardStdin(strings.NewReader("in\n"))

	m := stepio.NewMux(ln.Addr().String(), key, 10*time.Second, 2)
	s0, err := m.Join(0)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := m.Join(1)
	if err != nil {
		t.Fatal(err)
	}
	in := [2]*stdinRecorder{{}, {}}
	s0.Stdin([]io.WriteCloser{in[0]})
	s1.Stdin([]io.WriteCloser{in[1]})
	c2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	w2 := stepio.NewWriter(c2)
	w2.Write(stepio.Hello, 2, key)

	s0.Write(stepio.Stdout, 0, []byte("zero\n"))
	s0.Write(stepio.Stdout, 1, []byte("one"))
	s1.Write(stepio.Stderr, 2, []byte("two\n"))
	s0.Write(stepio.Exit, 0, stepio.ExitData(0))
	s0.Write(stepio.Exit, 1, stepio.ExitData(0))
	s1.Write(stepio.Exit, 2, stepio.ExitData(3<<8))
	// Input reaches both shares (before they close: closing the last ends the connection).
	for deadline := time.Now().Add(30 * time.Second); in[0].String() == "" || in[1].String() == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("stdin never reached the shares: %q %q", in[0].String(), in[1].String())
		}
	}
	s0.Close()
	s1.Close() // rank 3 never exited: lost
	// The one-node connection gets srun's input once node 2 is known.
	rd := stepio.NewReader(c2)
	c2.SetReadDeadline(time.Now().Add(30 * time.Second))
	var got []byte
	for {
		f, err := rd.Read()
		if err != nil {
			t.Fatalf("node 2's stdin: %v (got %q)", err, got)
		}
		if f.Type == stepio.StdinEOF {
			break
		}
		got = append(got, f.Data...)
	}
	if string(got) != "in\n" {
		t.Errorf("node 2's stdin %q", got)
	}
	w2.Write(stepio.Stdout, 4, []byte("four\n"))
	w2.Write(stepio.Exit, 4, stepio.ExitData(0))
	c2.Close()

	ends := make(chan []taskEnd, 1)
	go func() { ends <- r.wait() }()
	var e []taskEnd
	select {
	case e = <-ends:
	case <-time.After(60 * time.Second):
		t.Fatal("relay never saw every task end")
	}
	want := []taskEnd{{rank: 0, node: "n1"}, {rank: 1, node: "n1"}, {rank: 2, node: "n2", status: 3 << 8},
		{rank: 3, node: "n2", lost: true, status: 1 << 8}, {rank: 4, node: "n3"}}
	if len(e) != len(want) {
		t.Fatalf("ends %+v", e)
	}
	for i := range want {
		if e[i] != want[i] {
			t.Errorf("end %d: %+v, want %+v", i, e[i], want[i])
		}
	}
	for _, line := range []string{"0: zero\n", "1: one\n", "4: four\n"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("stdout %q lacks %q", out.String(), line)
		}
	}
	if errOut.String() != "2: two\n" {
		t.Errorf("stderr %q", errOut.String())
	}
	for i, rec := range in {
		if rec.String() != "in\n" {
			t.Errorf("share %d's stdin %q: want srun's input once", i, rec.String())
		}
	}
}

type stdinRecorder struct{ lockedBuffer }

func (s *stdinRecorder) Close() error { return nil }
