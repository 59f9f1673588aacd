package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

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
	stdinC  map[uint32]chan net.Conn // per node reading srun's stdin: its connection, or nil if it failed
	// badExit, when set (srun -K), is called once, for the first task that ends badly.
	badExit func(taskEnd)
	// cancelled, when set, is called when a node says the step was cancelled there.
	cancelled func()
	// firstEnd, when set, is called when the first task ends and others still run.
	firstEnd func()
	// pmi, for an --mpi=pmi2 step, completes the nodes' PMI fences (pmi_fence.go); pmiAbort,
	// when set, is called once, for the first task that asks PMI to abort the step.
	pmi         *pmiFences
	pmiAbort    func(rank, code uint32)
	pmiAbortOne sync.Once
	badExitOnce sync.Once
	serving     sync.WaitGroup // connections still open: their output may follow the exits
	// nodeRanks are each node's global ranks, rankNode each rank's node (setRanks; block
	// when never set).
	ranksOnce sync.Once
	nodeRanks [][]uint32
	rankNode  []uint32
	// early, when set, gathers bad exits to report while other tasks run
	// (task_exit_report.go); reported are the ranks already reported (under mu).
	early    *earlyExits
	reported map[uint32]bool
	// givenUp, when set, says whether srun has given the step up (a signal's end is then
	// not reported early).
	givenUp func() bool
	// procs, for srun --debugger-test, gathers the stopped tasks' pids (debugger.go).
	procs *proctable
}

func newRelay(ln net.Listener, key []byte, step *wire.StepCreateReply, stdout, stderr io.Writer, label bool,
	stdinNodes map[uint32]bool) *relay {
	r := &relay{ln: ln, key: key, step: step, stdout: stdout, stderr: stderr, label: label,
		width: len(fmt.Sprint(max(step.NumTasks, 1) - 1)), ends: map[uint32]taskEnd{},
		partial: map[[2]uint32][]byte{}, conns: map[uint32]net.Conn{}, done: make(chan struct{}),
		stdinC: map[uint32]chan net.Conn{}, reported: map[uint32]bool{}}
	for n := range stdinNodes {
		r.stdinC[n] = make(chan net.Conn, 1)
	}
	return r
}

// stdinReady hands node's connection (nil: the node failed) to forwardStdin, once.
func (r *relay) stdinReady(node uint32, c net.Conn) {
	if ch := r.stdinC[node]; ch != nil {
		select {
		case ch <- c:
		default:
		}
	}
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

// setRanks says which global ranks each node runs (task_dist.go), before any connection.
func (r *relay) setRanks(nodeRanks [][]uint32) {
	r.ranksOnce.Do(func() { r.indexRanks(nodeRanks) })
}

func (r *relay) indexRanks(nodeRanks [][]uint32) {
	r.nodeRanks = nodeRanks
	r.rankNode = make([]uint32, r.step.NumTasks)
	for n, ranks := range nodeRanks {
		for _, rk := range ranks {
			if rk < uint32(len(r.rankNode)) {
				r.rankNode[rk] = uint32(n)
			}
		}
	}
}

// ranksOf are the global ranks of node id n.
func (r *relay) ranksOf(n uint32) []uint32 {
	r.ranksOnce.Do(func() { r.indexRanks(taskRanks(r.step.Tasks, "block", 0)) })
	if int(n) >= len(r.nodeRanks) {
		return nil
	}
	return r.nodeRanks[n]
}

// join registers node as served by connection c (the first node of a connection, or one it
// joins); false if the node is already served (a duplicate is ignored) or out of range.
func (r *relay) join(node uint32, c net.Conn) bool {
	if int(node) >= len(r.step.Nodes) {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.conns[node]; dup {
		return false
	}
	r.conns[node] = c
	return true
}

// serve reads one connection: a slurmstepd's, carrying one node's tasks or (Join) several
// nodes'. A node whose share ends (Done) or whose connection ends has its tasks without an
// exit marked lost, as Slurm's srun does when a node's I/O goes away.
func (r *relay) serve(c net.Conn) {
	rd := stepio.NewReader(c)
	hello, err := rd.Read()
	if err != nil || hello.Type != stepio.Hello || !stepio.KeyEqual(hello.Data, r.key) ||
		int(hello.Rank) >= len(r.step.Nodes) {
		c.Close()
		return
	}
	r.mu.Lock()
	select {
	case <-r.done:
		// Every task has ended: a late connection has nothing to add (and must not join
		// the wait for the open ones).
		r.mu.Unlock()
		c.Close()
		return
	default:
	}
	r.serving.Add(1)
	r.mu.Unlock()
	defer r.serving.Done()
	open := map[uint32]bool{} // nodes of this connection whose share has not ended
	if r.join(hello.Rank, c) {
		open[hello.Rank] = true
		r.stdinReady(hello.Rank, c)
	}
	ended := func(node uint32) {
		delete(open, node)
		ranks := r.ranksOf(node)
		r.flush(ranks)
		r.nodeFailed(node, ranks) // tasks without an exit are lost
	}
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
				e := taskEnd{rank: f.Rank, node: r.nodeOfRank(f.Rank), status: st}
				r.end(e)
				if ws := syscall.WaitStatus(st); r.badExit != nil && (ws.Signaled() || ws.ExitStatus() != 0) {
					r.badExitOnce.Do(func() { r.badExit(e) })
				}
			}
		case stepio.Pid:
			if r.procs != nil {
				r.procs.add(f.Rank, f.Data)
			}
		case stepio.Failed:
			if int(f.Rank) < len(r.step.Nodes) {
				fmt.Fprintf(r.stderr, "srun: error: %s: %s\n", r.step.Nodes[f.Rank], f.Data)
			}
		case stepio.Join:
			if r.join(f.Rank, c) {
				open[f.Rank] = true
				r.stdinReady(f.Rank, c)
			}
		case stepio.Done:
			if open[f.Rank] {
				ended(f.Rank)
			}
		case stepio.Cancelled:
			if r.cancelled != nil && string(f.Data) != stepio.CancelStepTimeLimit {
				r.cancelled() // the step's own time limit: only its tasks' ends are told
			}
		case stepio.PMIPut:
			if r.pmi != nil && open[f.Rank] {
				r.pmi.put(f.Data)
			}
		case stepio.PMIFence:
			if r.pmi != nil && open[f.Rank] {
				r.pmi.enter(f.Rank, c)
			}
		case stepio.PMIAbort:
			if r.pmiAbort != nil && len(f.Data) == 4 {
				code := binary.BigEndian.Uint32(f.Data)
				r.pmiAbortOne.Do(func() { r.pmiAbort(f.Rank, code) })
			}
		}
	}
	c.Close()
	for node := range open {
		ended(node)
	}
}

// sendWinsize sends srun's terminal's new size to the node running task 0 (srun --pty).
func (r *relay) sendWinsize(rows, cols uint16) {
	r.ranksOf(0)
	node := uint32(0)
	if len(r.rankNode) > 0 {
		node = r.rankNode[0]
	}
	r.mu.Lock()
	c := r.conns[node]
	r.mu.Unlock()
	if c != nil {
		stepio.NewWriter(c).Write(stepio.Winsize, node, stepio.WinsizeData(rows, cols))
	}
}

// nodeOfRank is the name of the node running global rank.
func (r *relay) nodeOfRank(rank uint32) string {
	r.ranksOf(0) // indexes the ranks
	if rank < uint32(len(r.rankNode)) && int(r.rankNode[rank]) < len(r.step.Nodes) {
		return r.step.Nodes[r.rankNode[rank]]
	}
	return ""
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

// flush prints the unterminated labelled lines of ranks (nil: of every rank).
func (r *relay) flush(ranks []uint32) {
	r.out.Lock()
	defer r.out.Unlock()
	if len(r.partial) == 0 {
		return
	}
	one := func(k [2]uint32) {
		if buf := r.partial[k]; len(buf) > 0 {
			w := r.stdout
			if k[0] == 1 {
				w = r.stderr
			}
			fmt.Fprintf(w, "%*d: %s\n", r.width, k[1], buf)
		}
		delete(r.partial, k)
	}
	if ranks == nil {
		for k := range r.partial {
			one(k)
		}
		return
	}
	for _, rk := range ranks {
		one([2]uint32{0, rk})
		one([2]uint32{1, rk})
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
		return
	}
	r.gatherExit(e) // task_exit_report.go
	if len(r.ends) == 1 && r.firstEnd != nil {
		go r.firstEnd() // not under r.mu: it may read the ends
	}
}

// nodeFailed marks the node's tasks that have not ended as lost.
func (r *relay) nodeFailed(node uint32, ranks []uint32) {
	r.stdinReady(node, nil)
	name := ""
	if int(node) < len(r.step.Nodes) {
		name = r.step.Nodes[node]
	}
	for _, rk := range ranks {
		r.end(taskEnd{rank: rk, node: name, lost: true, status: 1 << 8})
	}
}

// forwardStdin sends srun's stdin to every node with a task reading it, once they have all
// connected (or failed), and then the end of input: once per connection (a slurmstepd
// carrying several nodes copies it to each of their tasks).
func (r *relay) forwardStdin(in io.Reader) {
	var ws []*stepio.Writer
	seen := map[net.Conn]bool{}
	for _, ch := range r.stdinC {
		select {
		case c := <-ch:
			if c != nil && !seen[c] {
				seen[c] = true
				ws = append(ws, stepio.NewWriter(c))
			}
		case <-r.done:
			return
		}
	}
	if len(ws) == 0 {
		return
	}
	send := func(typ byte, data []byte) {
		ok := ws[:0]
		for _, w := range ws {
			if w.Write(typ, 0, data) == nil {
				ok = append(ok, w)
			}
		}
		ws = ok
	}
	if in == nil {
		send(stepio.StdinEOF, nil)
		return
	}
	buf := make([]byte, 32<<10)
	for len(ws) > 0 {
		n, err := in.Read(buf)
		if n > 0 {
			send(stepio.Stdin, buf[:n])
		}
		if err != nil {
			send(stepio.StdinEOF, nil)
			return
		}
	}
}

// ioLinger bounds how long srun waits, once every task has ended, for the nodes to close
// their I/O connections (each slurmstepd sends a task's exit as it happens, and the rest of
// its output after; it closes once the step is cleaned up).
const ioLinger = 30 * time.Second

// wait returns every task's end once all are known and the nodes finished sending output.
func (r *relay) wait() []taskEnd {
	<-r.done
	closed := make(chan struct{})
	go func() {
		r.mu.Lock() // no connection registers half-way
		r.mu.Unlock()
		r.serving.Wait()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(ioLinger):
	}
	r.flush(nil)
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
// task exit code, 128+signal for a task killed by a signal. Tasks ended by a signal after
// srun gave the step up (cancelled) are not reported, as Slurm's srun does. killed says a
// task ended by SIGKILL or SIGTERM, for which Slurm says the step was force terminated.
func (s *session) report(step *wire.StepCreateReply, ends []taskEnd, reported map[uint32]bool, cancelled bool) (code int, killed bool) {
	type group struct {
		node, what string
		status     uint32 // with -v, the tasks' status: each group is one exit notification
		quiet      bool   // with -v, a line Slurm prints at verbose level only
		ranks      []string
	}
	verbose := s.verbose() // verbose.go
	var groups []*group
	find := func(node, what string, status uint32, quiet bool) *group {
		for _, g := range groups {
			if g.node == node && g.what == what && (!verbose || g.status == status && g.quiet == quiet) {
				return g
			}
		}
		g := &group{node: node, what: what, status: status, quiet: quiet}
		groups = append(groups, g)
		return g
	}
	oom, oomNode := false, ""
	for _, e := range ends {
		ws := syscall.WaitStatus(e.status)
		var what string
		quiet := false
		v := 0
		switch {
		case e.lost:
			what, v = "Unknown error", 1
		case e.status&0xff == sigOOM:
			// Slurm prints the first "Out Of Memory" report only, and srun exits 1.
			if !oom {
				oomNode = e.node
			}
			if e.node == oomNode {
				what = "Out Of Memory"
			}
			oom = true
		case ws.Signaled():
			what, v = signalText(ws.Signal()), 128+int(ws.Signal())
			killed = killed || ws.Signal() == syscall.SIGKILL || ws.Signal() == syscall.SIGTERM
			if cancelled {
				quiet = true
			}
		case ws.ExitStatus() != 0:
			what, v = fmt.Sprintf("Exited with exit code %d", ws.ExitStatus()), ws.ExitStatus()
		default:
			what, quiet = "Completed", true
		}
		code = max(code, v)
		if quiet && !verbose || what == "" {
			continue
		}
		if !reported[e.rank] || verbose {
			g := find(e.node, what, e.status, quiet || reported[e.rank])
			g.ranks = append(g.ranks, fmt.Sprint(e.rank))
		}
	}
	for _, g := range groups {
		word := tasksWord(len(g.ranks))
		list := g.ranks[0]
		if len(g.ranks) > 1 {
			list = compressRanks(g.ranks)
		}
		if verbose {
			fmt.Fprintf(s.stderr, "srun: launch/slurm: _task_finish: Received task exit notification for %d %s of StepId=%d.%d (status=0x%04x).\n",
				len(g.ranks), word, step.JobID, step.StepID, g.status)
		}
		if g.quiet {
			fmt.Fprintf(s.stderr, "srun: launch/slurm: _task_finish: %s: %s %s: %s\n", g.node, word, list, g.what)
			continue
		}
		fmt.Fprintf(s.stderr, "srun: error: %s: %s %s: %s\n", g.node, word, list, g.what)
	}
	if oom {
		return 1, false
	}
	return code, killed
}

// stepStatus is the step's status srun reports to the controller: SIG_OOM when a task
// was reported out of memory (the job's derived exit code shows it), else srun's exit code
// as a wait status.
func stepStatus(ends []taskEnd, code int) uint32 {
	for _, e := range ends {
		if !e.lost && e.status&0xff == sigOOM {
			return sigOOM
		}
	}
	return uint32(code&0xff) << 8
}

// sigOOM is Slurm's dummy signal for a task of a step that saw an oom-kill (SIG_OOM): the
// node reports the task's status as this value.
const sigOOM = 253

// endText is how srun describes a task's bad end ("Exited with exit code 3", "Killed").
func endText(e taskEnd) string {
	ws := syscall.WaitStatus(e.status)
	switch {
	case e.lost:
		return "Unknown error"
	case e.status&0xff == sigOOM:
		return "Out Of Memory"
	case ws.Signaled():
		return signalText(ws.Signal())
	}
	return fmt.Sprintf("Exited with exit code %d", ws.ExitStatus())
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
