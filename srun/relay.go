package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// taskEnd is how one task ended.
type taskEnd struct {
	rank   uint32
	node   string
	status uint32 // wait(2) status
	lost   bool   // the node never ran it or its connection broke
}

// relay receives the step's I/O connections: it prints output in arrival order (whole lines
// per task when labelling) and collects the tasks' ends.
type relay struct {
	ln      net.Listener
	key     []byte
	step    *wire.StepCreateReply
	stdout  io.Writer
	stderr  io.Writer
	label   bool
	width   int
	mu      sync.Mutex
	out     sync.Mutex
	ends    map[uint32]taskEnd
	partial map[[2]uint32][]byte // (stream, rank) → unterminated line
	conns   map[uint32]net.Conn  // node id → connection
	done    chan struct{}
	stdinC  chan net.Conn
}

func newRelay(ln net.Listener, key []byte, step *wire.StepCreateReply, stdout, stderr io.Writer, label bool) *relay {
	return &relay{ln: ln, key: key, step: step, stdout: stdout, stderr: stderr, label: label,
		width: len(fmt.Sprint(max(step.NumTasks, 1) - 1)), ends: map[uint32]taskEnd{},
		partial: map[[2]uint32][]byte{}, conns: map[uint32]net.Conn{}, done: make(chan struct{}),
		stdinC: make(chan net.Conn, 1)}
}

// accept serves connections until the listener closes.
func (r *relay) accept() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		go r.serve(c)
	}
}

// ranksOf are the global ranks of node id n.
func (r *relay) ranksOf(n uint32) []uint32 {
	var first uint32
	for i := uint32(0); i < n && int(i) < len(r.step.Tasks); i++ {
		first += r.step.Tasks[i]
	}
	var out []uint32
	if int(n) < len(r.step.Tasks) {
		for k := uint32(0); k < r.step.Tasks[n]; k++ {
			out = append(out, first+k)
		}
	}
	return out
}

func (r *relay) serve(c net.Conn) {
	rd := stepio.NewReader(c)
	hello, err := rd.Read()
	if err != nil || hello.Type != stepio.Hello || !stepio.KeyEqual(hello.Data, r.key) ||
		int(hello.Rank) >= len(r.step.Nodes) {
		c.Close()
		return
	}
	node := hello.Rank
	r.mu.Lock()
	if _, dup := r.conns[node]; dup {
		r.mu.Unlock()
		c.Close()
		return
	}
	r.conns[node] = c
	r.mu.Unlock()
	if node == 0 {
		r.stdinC <- c
	}
	name := r.step.Nodes[node]
	for {
		f, err := rd.Read()
		if err != nil {
			break
		}
		switch f.Type {
		case stepio.Stdout:
			r.write(0, f.Rank, f.Data)
		case stepio.Stderr:
			r.write(1, f.Rank, f.Data)
		case stepio.Exit:
			st, err := stepio.ExitStatus(f.Data)
			if err == nil {
				r.end(taskEnd{rank: f.Rank, node: name, status: st})
			}
		case stepio.Failed:
			fmt.Fprintf(r.stderr, "srun: error: %s: %s\n", name, f.Data)
		}
	}
	c.Close()
	r.flush()
	r.nodeFailed(node, r.ranksOf(node)) // tasks without an exit are lost
}

// write prints task output; with labels, only whole lines (the rest waits for its newline
// or the end of the stream).
func (r *relay) write(stream, rank uint32, data []byte) {
	r.out.Lock()
	defer r.out.Unlock()
	w := r.stdout
	if stream == 1 {
		w = r.stderr
	}
	if !r.label {
		w.Write(data)
		return
	}
	k := [2]uint32{stream, rank}
	buf := append(r.partial[k], data...)
	var b bytes.Buffer
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		fmt.Fprintf(&b, "%*d: %s", r.width, rank, buf[:i+1])
		buf = buf[i+1:]
	}
	r.partial[k] = append([]byte(nil), buf...)
	w.Write(b.Bytes())
}

// flush prints every unterminated labelled line.
func (r *relay) flush() {
	r.out.Lock()
	defer r.out.Unlock()
	for k, buf := range r.partial {
		if len(buf) > 0 {
			w := r.stdout
			if k[0] == 1 {
				w = r.stderr
			}
			fmt.Fprintf(w, "%*d: %s\n", r.width, k[1], buf)
		}
		delete(r.partial, k)
	}
}

func (r *relay) end(e taskEnd) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seen := r.ends[e.rank]; seen || e.rank >= r.step.NumTasks {
		return
	}
	r.ends[e.rank] = e
	if uint32(len(r.ends)) == r.step.NumTasks {
		close(r.done)
	}
}

// nodeFailed marks the node's tasks that have not ended as lost.
func (r *relay) nodeFailed(node uint32, ranks []uint32) {
	name := ""
	if int(node) < len(r.step.Nodes) {
		name = r.step.Nodes[node]
	}
	for _, rk := range ranks {
		r.end(taskEnd{rank: rk, node: name, lost: true, status: 1 << 8})
	}
}

// forwardStdin sends srun's stdin to task 0 once its node connected.
func (r *relay) forwardStdin(in io.Reader) {
	var c net.Conn
	select {
	case c = <-r.stdinC:
	case <-r.done:
		return
	}
	if in == nil {
		stepio.NewWriter(c).Write(stepio.StdinEOF, 0, nil)
		return
	}
	w := stepio.NewWriter(c)
	buf := make([]byte, 32<<10)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if w.Write(stepio.Stdin, 0, buf[:n]) != nil {
				return
			}
		}
		if err != nil {
			w.Write(stepio.StdinEOF, 0, nil)
			return
		}
	}
}

// wait returns every task's end once all are known.
func (r *relay) wait() []taskEnd {
	<-r.done
	r.mu.Lock()
	conns := make([]net.Conn, 0, len(r.conns))
	for _, c := range r.conns {
		conns = append(conns, c)
	}
	r.mu.Unlock()
	r.flush()
	out := make([]taskEnd, 0, len(r.ends))
	r.mu.Lock()
	for _, e := range r.ends {
		out = append(out, e)
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	return out
}

// report prints Slurm's per-node lines for tasks that failed ("srun: error: n1: task 0:
// Exited with exit code 3", "tasks 0-1: Killed") and returns srun's exit code: the highest
// task exit code, 128+signal for a task killed by a signal.
func (s *session) report(step *wire.StepCreateReply, ends []taskEnd) (int, bool) {
	type group struct {
		node, what string
		ranks      []string
	}
	var groups []*group
	find := func(node, what string) *group {
		for _, g := range groups {
			if g.node == node && g.what == what {
				return g
			}
		}
		g := &group{node: node, what: what}
		groups = append(groups, g)
		return g
	}
	code, signalled := 0, false
	for _, e := range ends {
		ws := syscall.WaitStatus(e.status)
		var what string
		v := 0
		switch {
		case e.lost:
			what, v = "Unknown error", 1
		case ws.Signaled():
			what, v = signalText(ws.Signal()), 128+int(ws.Signal())
			signalled = true
		case ws.ExitStatus() != 0:
			what, v = fmt.Sprintf("Exited with exit code %d", ws.ExitStatus()), ws.ExitStatus()
		}
		code = max(code, v)
		if what != "" {
			g := find(e.node, what)
			g.ranks = append(g.ranks, fmt.Sprint(e.rank))
		}
	}
	for _, g := range groups {
		word := "task"
		list := g.ranks[0]
		if len(g.ranks) > 1 {
			word = "tasks"
			list = compressRanks(g.ranks)
		}
		fmt.Fprintf(s.stderr, "srun: error: %s: %s %s: %s\n", g.node, word, list, g.what)
	}
	return code, signalled
}

// compressRanks writes ranks as Slurm does: "0-2,5".
func compressRanks(ranks []string) string {
	// hostlist's range compression on bare numbers gives the same form inside brackets.
	c := hostlist.Compress(ranks)
	return strings.TrimSuffix(strings.TrimPrefix(c, "["), "]")
}

// signalText is strsignal(3)'s text, as srun prints it.
func signalText(sig syscall.Signal) string {
	t := sig.String()
	if t == "" {
		return fmt.Sprintf("Signal %d", int(sig))
	}
	return strings.ToUpper(t[:1]) + t[1:]
}
