package stepio

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// Mux is a slurmstepd's one I/O connection to srun, shared by the node shares it runs. The
// first share to join dials srun and sends Hello, every later one sends Join; a share sends
// Done when it ends; the connection closes once every expected share has closed (or failed
// to join). srun's stdin is read once for them all and copied to every share's tasks that
// read it, once each share has said where those are (Share.Stdin), so no input is lost to
// a share still starting.
type Mux struct {
	addr    string
	key     []byte
	timeout time.Duration

	mu      sync.Mutex
	conn    net.Conn
	w       *Writer
	dialErr error
	dialed  bool
	left    int // shares that have neither closed nor failed to join
	pending int // shares that have not yet said where their stdin goes
	// running counts the shares joined and not yet closing: srun ending the connection
	// while one runs is srun lost (Lost), not srun done.
	running int
	lost    chan struct{}
	stdin   []io.WriteCloser
	// fences are the shares' PMI fence handlers, by node id (Share.OnFence).
	fences map[uint32]func(pairs []byte)
	// winsize are the shares' terminal-size handlers, by node id (Share.OnWinsize).
	winsize map[uint32]func(rows, cols uint16)
}

// NewMux returns the connection for shares node shares of the step whose I/O port is addr.
// Nothing is dialled before the first Join.
func NewMux(addr string, key []byte, timeout time.Duration, shares int) *Mux {
	return &Mux{addr: addr, key: key, timeout: timeout, left: shares, pending: shares, lost: make(chan struct{})}
}

// Lost is closed when srun ends the connection while a share still runs: srun was killed
// (or its host or network failed) before the step ended. Slurm's srun leaves a shepherd
// process behind for this, which kills the step and cancels the job srun allocated; here
// the stepd's end of the stream does it.
func (m *Mux) Lost() <-chan struct{} { return m.lost }

// ErrMuxFull is Join's error when more shares join than NewMux was told.
var ErrMuxFull = errors.New("stepio: more shares than the connection was opened for")

// Join adds node id node's share to the connection, dialling srun for the first one. On
// error the share counts as closed.
func (m *Mux) Join(node uint32) (*Share, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.left <= 0 {
		return nil, ErrMuxFull
	}
	typ, data := Join, []byte(nil)
	if !m.dialed {
		m.dialed = true
		m.conn, m.dialErr = net.DialTimeout("tcp", m.addr, m.timeout)
		if m.dialErr == nil {
			m.w = NewWriter(m.conn)
		}
		typ, data = Hello, m.key
	}
	err := m.dialErr
	if err == nil {
		err = m.w.Write(typ, node, data)
	}
	if err != nil {
		m.closeLocked()
		m.readyLocked(nil)
		return nil, err
	}
	m.running++
	return &Share{m: m, node: node}, nil
}

// closeLocked counts one share closed and closes the connection after the last.
func (m *Mux) closeLocked() {
	m.left--
	if m.left == 0 && m.conn != nil {
		m.conn.Close()
	}
}

// readyLocked records one share's stdin writers and starts reading srun's input once every
// share has given them.
func (m *Mux) readyLocked(ws []io.WriteCloser) {
	m.stdin = append(m.stdin, ws...)
	m.pending--
	if m.pending == 0 && m.conn != nil {
		go m.read(m.stdin)
	}
}

// Share is one node share's end of a Mux.
type Share struct {
	m         *Mux
	node      uint32
	once      sync.Once
	readyOnce sync.Once
}

// Node is the share's node id.
func (s *Share) Node() uint32 { return s.node }

// Write sends one frame of the share's tasks.
func (s *Share) Write(typ byte, rank uint32, data []byte) error {
	return s.m.w.Write(typ, rank, data)
}

// Stdin says which writers take srun's stdin for this share's tasks (none: nil). srun's
// input is forwarded once every share of the connection has said so (or closed).
func (s *Share) Stdin(ws []io.WriteCloser) {
	s.readyOnce.Do(func() {
		s.m.mu.Lock()
		s.m.readyLocked(ws)
		s.m.mu.Unlock()
	})
}

// Close ends the share: srun learns it is done (Done), and the connection closes after the
// last share. A share that never called Stdin gives no stdin writers.
func (s *Share) Close() {
	s.Stdin(nil)
	s.once.Do(func() {
		// Counted before srun can see Done and close its end.
		s.m.mu.Lock()
		s.m.running--
		s.m.mu.Unlock()
		s.m.w.Write(Done, s.node, nil)
		s.m.mu.Lock()
		s.m.closeLocked()
		s.m.mu.Unlock()
	})
}

// OnFence sets the function that gets the step's PMI pairs when srun completes a fence for
// this share's node (the data of srun's PMIPut frames since the previous fence, AppendPair's
// encoding; nil when there were none). It must be set before the share's tasks start.
func (s *Share) OnFence(fn func(pairs []byte)) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.m.fences == nil {
		s.m.fences = map[uint32]func([]byte){}
	}
	s.m.fences[s.node] = fn
}

// OnWinsize sets the function that gets srun's new terminal sizes for this share's node
// (srun --pty).
func (s *Share) OnWinsize(fn func(rows, cols uint16)) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.m.winsize == nil {
		s.m.winsize = map[uint32]func(uint16, uint16){}
	}
	s.m.winsize[s.node] = fn
}

// read takes srun's frames until the end of the connection: Stdin frames are copied to ws
// until StdinEOF (then ws are closed; a writer that fails, its task having closed its
// input, gets no more), PMI frames go to the shares' fence handlers. An end while a share
// runs closes Lost.
func (m *Mux) read(ws []io.WriteCloser) {
	r := NewReader(m.conn)
	defer func() {
		for _, w := range ws {
			w.Close()
		}
	}()
	var pairs []byte // the current fence's PMIPut data
	fenced := false  // a PMIFence ended the fence pairs belongs to
	for {
		f, err := r.Read()
		if err != nil {
			m.mu.Lock()
			lost := m.running > 0
			m.mu.Unlock()
			if lost {
				close(m.lost)
			}
			return
		}
		switch f.Type {
		case PMIPut:
			if fenced {
				pairs, fenced = nil, false
			}
			pairs = append(pairs, f.Data...)
		case PMIFence:
			fenced = true
			m.mu.Lock()
			fn := m.fences[f.Rank]
			m.mu.Unlock()
			if fn != nil {
				fn(pairs) // each share copies what it keeps; pairs is not changed after
			}
		case Winsize:
			m.mu.Lock()
			fn := m.winsize[f.Rank]
			m.mu.Unlock()
			if rows, cols, ok := WinsizeOf(f.Data); ok && fn != nil {
				fn(rows, cols)
			}
		case Stdin:
			open := ws[:0]
			for _, w := range ws {
				if _, err := w.Write(f.Data); err == nil {
					open = append(open, w)
				}
			}
			ws = open
		case StdinEOF:
			for _, w := range ws {
				w.Close()
			}
			ws = nil
		}
	}
}

// WritePairs sends the share's PMI puts to srun (PMIPut frames for its node).
func (s *Share) WritePairs(data []byte) error {
	return s.m.w.WritePairs(s.node, data)
}
