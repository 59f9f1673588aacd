package pmi

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"sync"
	"syscall"
)

// Limits the server announces (PMI-1 get_maxes) and enforces, as Slurm's.
const (
	MaxKVSName = 256
	MaxKeyLen  = 64
	MaxValLen  = 1024
)

// Pair is one key and its value in the step's key-value space.
type Pair struct{ Key, Value string }

// Step is what the server knows of the step and its node share.
type Step struct {
	JobID, StepID uint32
	Size          int      // tasks in the whole step (PMI_SIZE, the universe size)
	Ranks         []uint32 // this node's tasks' global ranks, by local id
	Mapping       string   // PMI_process_mapping, as srun computes it
	// Fence exchanges the pairs this node's tasks put since the last fence for the pairs
	// every node's tasks put (this node's included). It is called once every local task has
	// entered the fence, from a goroutine of its own, and may block until all nodes have.
	// Nil: the node is the whole step.
	Fence func(puts []Pair) ([]Pair, error)
	// Abort, when set, is called when a task asks PMI to abort the step (MPI_Abort): the
	// caller ends the step on every node.
	Abort func(rank uint32, code int, msg string)
	// Logf, when set, records protocol errors (a task's malformed request).
	Logf func(format string, args ...any)
}

// JobIDString is the step's PMI job id and key-value space name, "job.step" as Slurm names it.
func (s *Step) JobIDString() string { return fmt.Sprintf("%d.%d", s.JobID, s.StepID) }

// Server serves one node share's tasks.
type Server struct {
	st Step

	mu      sync.Mutex
	version int               // the protocol the first task chose: 1 or 2 (0 before)
	kvs     map[string]string // the step's space, as of the last fence
	keys    []string          // kvs's keys, sorted (getbyidx); nil when stale
	puts    []Pair            // this node's puts since the last fence
	entered int               // local tasks inside the current fence
	cur     *fenceRound       // the fence tasks enter now
	attrs   map[string]string // node attributes (PMI-2 info-putnodeattr)
	attrSet *sync.Cond        // signalled when one is put
	conns   []net.Conn
	closed  bool
	closing chan struct{} // closed by Close: tasks waiting in a fence give up
	wg      sync.WaitGroup
}

// NewServer returns a server for st; the step's PMI_process_mapping is in its space from
// the start (PMI-1 clients read it with get).
func NewServer(st Step) *Server {
	s := &Server{st: st, kvs: map[string]string{}, attrs: map[string]string{}, cur: &fenceRound{done: make(chan struct{})},
		closing: make(chan struct{})}
	s.attrSet = sync.NewCond(&s.mu)
	if st.Mapping != "" {
		s.kvs["PMI_process_mapping"] = st.Mapping
	}
	return s
}

// TaskSocket makes the socket pair of local task local and serves the server's end; the
// returned end is the task's, to be inherited at its own number (PMI_FD) and closed by the
// caller once the task is started.
func (s *Server) TaskSocket(local int) (*os.File, error) {
	if local < 0 || local >= len(s.st.Ranks) {
		return nil, fmt.Errorf("pmi: no local task %d", local)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("pmi: socketpair: %w", err)
	}
	mine := os.NewFile(uintptr(fds[0]), "pmi")
	c, err := net.FileConn(mine)
	mine.Close() // FileConn holds a duplicate
	if err != nil {
		syscall.Close(fds[1])
		return nil, fmt.Errorf("pmi: %w", err)
	}
	if err := s.serve(c, local); err != nil {
		syscall.Close(fds[1])
		return nil, err
	}
	return os.NewFile(uintptr(fds[1]), "pmi-task"), nil
}

// serve serves local task local on c until the task is done or the server closes.
func (s *Server) serve(c net.Conn, local int) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		return errors.New("pmi: server closed")
	}
	s.conns = append(s.conns, c)
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer c.Close()
		s.serveTask(c, local)
	}()
	return nil
}

// Env is local task local's PMI variables, given the descriptor number its socket has in
// the task.
func (s *Server) Env(local int, fd uintptr) []string {
	return []string{
		fmt.Sprintf("PMI_FD=%d", fd),
		"PMI_JOBID=" + s.st.JobIDString(),
		fmt.Sprintf("PMI_RANK=%d", s.st.Ranks[local]),
		fmt.Sprintf("PMI_SIZE=%d", s.st.Size),
	}
}

// Close stops serving: tasks still connected see their socket close, and a fence waiting
// for the other nodes fails.
func (s *Server) Close() {
	s.mu.Lock()
	if !s.closed {
		close(s.closing)
	}
	s.closed = true
	for _, c := range s.conns {
		c.Close()
	}
	s.attrSet.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
}

// errClosed fails a fence still waiting for the node's other tasks when the server closes.
var errClosed = errors.New("the step ended before the fence completed")

// errTaskDone ends a task's session without an error worth logging (finalize).
var errTaskDone = errors.New("pmi: task done")

// serveTask reads local task local's requests until it finalizes or closes its end.
func (s *Server) serveTask(c net.Conn, local int) {
	r := bufio.NewReaderSize(c, 4096)
	version, err := s.init(c, r)
	if err != nil {
		if !isClosed(err) { // a task that does not use PMI closes its socket unused
			s.logf("pmi: task %d: %v", s.st.Ranks[local], err)
		}
		return
	}
	t := &task{s: s, c: c, r: r, local: local, rank: s.st.Ranks[local]}
	for {
		if version == 1 {
			err = t.pmi1()
		} else {
			err = t.pmi2()
		}
		if err != nil {
			if err != errTaskDone && !isClosed(err) {
				s.logf("pmi: task %d: %v", t.rank, err)
			}
			return
		}
	}
}

// init answers the task's first line, "cmd=init pmi_version=V pmi_subversion=S", sent in
// PMI-1's form by clients of either version. Versions 1.1 and 2.0 are served; every task
// of the step must ask for the same one (as in Slurm).
func (s *Server) init(c net.Conn, r *bufio.Reader) (int, error) {
	line, err := readLine(r)
	if err != nil {
		return 0, err
	}
	cmd, args := parsePMI1(line)
	if cmd != "init" {
		return 0, fmt.Errorf("first request is %q, want cmd=init", line)
	}
	v, sv := args["pmi_version"], args["pmi_subversion"]
	version := 0
	switch {
	case v == "1" && sv == "1":
		version = 1
	case v == "2" && sv == "0":
		version = 2
	}
	s.mu.Lock()
	if version != 0 && s.version != 0 && s.version != version {
		version = 0 // inconsistent with the other tasks
	} else if version != 0 {
		s.version = version
	}
	s.mu.Unlock()
	rc := 0
	if version == 0 {
		rc = -1
	}
	if _, err := fmt.Fprintf(c, "cmd=response_to_init rc=%d pmi_version=%s pmi_subversion=%s\n", rc, v, sv); err != nil {
		return 0, err
	}
	if version == 0 {
		return 0, fmt.Errorf("unsupported PMI version %s.%s", v, sv)
	}
	return version, nil
}

// put records a task's pair for the next fence. A key or value beyond the limits is
// refused.
func (s *Server) put(key, value string) bool {
	if key == "" || len(key) > MaxKeyLen || len(value) > MaxValLen {
		return false
	}
	s.mu.Lock()
	s.puts = append(s.puts, Pair{key, value})
	s.mu.Unlock()
	return true
}

// get is the value of key in the step's space, as of the last fence.
func (s *Server) get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.kvs[key]
	return v, ok
}

// byIndex is the i-th pair of the space in key order (PMI-1 getbyidx).
func (s *Server) byIndex(i int) (Pair, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys == nil {
		s.keys = make([]string, 0, len(s.kvs))
		for k := range s.kvs {
			s.keys = append(s.keys, k)
		}
		sort.Strings(s.keys)
	}
	if i < 0 || i >= len(s.keys) {
		return Pair{}, false
	}
	return Pair{s.keys[i], s.kvs[s.keys[i]]}, true
}

// fence enters the calling task into the current fence and returns once it completes: when
// the node's last task enters, the node's puts are exchanged (Step.Fence) and merged into
// the space.
func (s *Server) fence() error {
	s.mu.Lock()
	g := s.cur
	s.entered++
	if s.entered < len(s.st.Ranks) {
		s.mu.Unlock()
		select {
		case <-g.done:
			return g.err
		case <-s.closing:
			return errClosed
		}
	}
	puts := s.puts
	s.puts, s.entered, s.cur = nil, 0, &fenceRound{done: make(chan struct{})}
	s.mu.Unlock()
	all, err := puts, error(nil)
	if s.st.Fence != nil {
		all, err = s.st.Fence(puts)
	}
	if err == nil {
		s.mu.Lock()
		for _, p := range all {
			s.kvs[p.Key] = p.Value
		}
		s.keys = nil
		s.mu.Unlock()
	}
	g.err = err
	close(g.done)
	return err
}

// fenceRound is one fence: closed done once it completes, with err its outcome.
type fenceRound struct {
	done chan struct{}
	err  error
}

// nodeAttr is a node attribute; with wait, it blocks until the attribute is put (or the
// server closes).
func (s *Server) nodeAttr(key string, wait bool) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		v, ok := s.attrs[key]
		if ok || !wait || s.closed {
			return v, ok
		}
		s.attrSet.Wait()
	}
}

func (s *Server) putNodeAttr(key, value string) {
	s.mu.Lock()
	s.attrs[key] = value
	s.attrSet.Broadcast()
	s.mu.Unlock()
}

// jobAttr is a PMI-2 job attribute.
func (s *Server) jobAttr(key string) (string, bool) {
	switch key {
	case "PMI_process_mapping":
		return s.st.Mapping, s.st.Mapping != ""
	case "universeSize":
		return fmt.Sprint(s.st.Size), true
	}
	return "", false
}

func (s *Server) abort(rank uint32, code int, msg string) {
	if s.st.Abort != nil {
		s.st.Abort(rank, code, msg)
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.st.Logf != nil {
		s.st.Logf(format, args...)
	}
}

// isClosed says err is the end of the task's connection (it exited or closed it).
func isClosed(err error) bool {
	return errors.Is(err, net.ErrClosed) || errors.Is(err, errEOF) || errors.Is(err, syscall.ECONNRESET)
}
