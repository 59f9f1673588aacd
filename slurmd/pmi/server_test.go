package pmi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is a task's end of its PMI socket, speaking as an MPI library would.
type client struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, s *Server, local int) *client {
	t.Helper()
	f, err := s.TaskSocket(local)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(30 * time.Second)) // bounds every wait of the test
	t.Cleanup(func() { c.Close() })
	return &client{t: t, c: c, r: bufio.NewReader(c)}
}

// pmi1 sends one PMI-1 line and returns the answer's line.
func (c *client) pmi1(line string) string {
	c.t.Helper()
	if _, err := io.WriteString(c.c, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
	got, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("%s: %v", line, err)
	}
	return strings.TrimSuffix(got, "\n")
}

// pmi2 sends one PMI-2 request and returns the answer's body.
func (c *client) pmi2(body string) string {
	c.t.Helper()
	if _, err := io.WriteString(c.c, fmt.Sprintf("%-6d%s", len(body), body)); err != nil {
		c.t.Fatal(err)
	}
	var head [6]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		c.t.Fatalf("%s: %v", body, err)
	}
	var n int
	fmt.Sscan(strings.TrimSpace(string(head[:])), &n)
	buf := make([]byte, n)
	if _, err := io.ReadFull(c.r, buf); err != nil {
		c.t.Fatal(err)
	}
	return string(buf)
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

// remoteFence stands for the other nodes of the step: it adds their pair to this node's
// and records what this node sent.
type remoteFence struct {
	mu   sync.Mutex
	sent [][]Pair
}

func (f *remoteFence) fence(puts []Pair) ([]Pair, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, puts)
	return append(append([]Pair(nil), puts...), Pair{"remote", fmt.Sprint("r", len(f.sent))}), nil
}

func TestPMI1_TwoTasksExchangeThroughAFence(t *testing.T) {
	rf := &remoteFence{}
	s := NewServer(Step{JobID: 7, StepID: 2, Size: 3, Ranks: []uint32{0, 1}, Mapping: "(vector,(0,1,2),(1,1,1))", Fence: rf.fence})
	defer s.Close()
	a, b := dial(t, s, 0), dial(t, s, 1)
	for _, c := range []*client{a, b} {
		expect(t, "init", c.pmi1("cmd=init pmi_version=1 pmi_subversion=1"), "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1")
	}
	expect(t, "maxes", a.pmi1("cmd=get_maxes"), "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024")
	expect(t, "universe", a.pmi1("cmd=get_universe_size"), "cmd=universe_size rc=0 size=3")
	expect(t, "kvsname", a.pmi1("cmd=get_my_kvsname"), "cmd=my_kvsname rc=0 kvsname=7.2")
	expect(t, "appnum", b.pmi1("cmd=get_appnum"), "cmd=appnum rc=0 appnum=-1")
	expect(t, "mapping", b.pmi1("cmd=get kvsname=7.2 key=PMI_process_mapping"), "cmd=get_result rc=0 value=(vector,(0,1,2),(1,1,1))")
	expect(t, "put a", a.pmi1("cmd=put kvsname=7.2 key=card-0 value=tcp://a"), "cmd=put_result rc=0")
	expect(t, "put b", b.pmi1("cmd=put kvsname=7.2 key=card-1 value=tcp://b"), "cmd=put_result rc=0")
	// Before the fence, a put is not visible, even to its own task.
	expect(t, "get before fence", a.pmi1("cmd=get kvsname=7.2 key=card-0"), "cmd=get_result rc=1")
	// The fence completes only once both tasks have entered it.
	outA := make(chan string, 1)
	go func() { outA <- a.pmi1("cmd=barrier_in") }()
	select {
	case got := <-outA:
		t.Fatalf("barrier returned %q before the node's other task entered it", got)
	case <-time.After(100 * time.Millisecond):
	}
	expect(t, "barrier b", b.pmi1("cmd=barrier_in"), "cmd=barrier_out rc=0")
	expect(t, "barrier a", <-outA, "cmd=barrier_out rc=0")
	if len(rf.sent) != 1 || len(rf.sent[0]) != 2 {
		t.Fatalf("the node sent %v to the other nodes, want one fence with both puts", rf.sent)
	}
	expect(t, "get own", a.pmi1("cmd=get kvsname=7.2 key=card-0"), "cmd=get_result rc=0 value=tcp://a")
	expect(t, "get other", a.pmi1("cmd=get kvsname=7.2 key=card-1"), "cmd=get_result rc=0 value=tcp://b")
	expect(t, "get remote", b.pmi1("cmd=get kvsname=7.2 key=remote"), "cmd=get_result rc=0 value=r1")
	expect(t, "getbyidx", b.pmi1("cmd=getbyidx kvsname=7.2 idx=0"), "cmd=getbyidx_results rc=0 nextidx=1 key=PMI_process_mapping val=(vector,(0,1,2),(1,1,1))")
	expect(t, "getbyidx end", b.pmi1("cmd=getbyidx kvsname=7.2 idx=4"), "cmd=getbyidx_results rc=-2 reason=no_more_keyvals")
	// A second fence with no new puts still completes, and exchanges nothing of this node's.
	go func() { outA <- a.pmi1("cmd=barrier_in") }()
	expect(t, "second barrier b", b.pmi1("cmd=barrier_in"), "cmd=barrier_out rc=0")
	expect(t, "second barrier a", <-outA, "cmd=barrier_out rc=0")
	expect(t, "remote after second fence", a.pmi1("cmd=get kvsname=7.2 key=remote"), "cmd=get_result rc=0 value=r2")
	expect(t, "spawn refused", a.pmi1("cmd=publish_name service=x port=y"), "cmd=publish_result info=fail")
	expect(t, "unknown", a.pmi1("cmd=frobnicate"), "cmd=frobnicate rc=-1")
	expect(t, "too long a key", a.pmi1("cmd=put kvsname=7.2 key="+strings.Repeat("k", 65)+" value=v"), "cmd=put_result rc=-1")
	expect(t, "finalize", a.pmi1("cmd=finalize"), "cmd=finalize_ack rc=0")
}

func TestPMI2_FullInitFenceAndAttributes(t *testing.T) {
	rf := &remoteFence{}
	s := NewServer(Step{JobID: 9, StepID: 0, Size: 4, Ranks: []uint32{2, 3}, Mapping: "(vector,(0,2,2))", Fence: rf.fence})
	defer s.Close()
	a, b := dial(t, s, 0), dial(t, s, 1)
	for _, c := range []*client{a, b} {
		expect(t, "init", c.pmi1("cmd=init pmi_version=2 pmi_subversion=0"), "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0")
	}
	expect(t, "fullinit", a.pmi2("cmd=fullinit;pmijobid=9.0;pmirank=2;threaded=FALSE;"),
		"cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=2;size=4;appnum=-1;debugged=FALSE;pmiverbose=FALSE;")
	expect(t, "fullinit b", b.pmi2("cmd=fullinit;pmijobid=9.0;pmirank=3;threaded=FALSE;"),
		"cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=3;size=4;appnum=-1;debugged=FALSE;pmiverbose=FALSE;")
	expect(t, "jobid", a.pmi2("cmd=job-getid;"), "cmd=job-getid-response;rc=0;jobid=9.0;")
	expect(t, "mapping", a.pmi2("cmd=info-getjobattr;key=PMI_process_mapping;"), "cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,2,2));")
	expect(t, "universe", a.pmi2("cmd=info-getjobattr;key=universeSize;"), "cmd=info-getjobattr-response;rc=0;found=TRUE;value=4;")
	expect(t, "no attr", a.pmi2("cmd=info-getjobattr;key=nope;"), "cmd=info-getjobattr-response;rc=0;found=FALSE;")
	// A node attribute waited for is answered once another task of the node puts it.
	gotAttr := make(chan string, 1)
	go func() { gotAttr <- b.pmi2("cmd=info-getnodeattr;key=shm;wait=TRUE;") }()
	time.Sleep(50 * time.Millisecond)
	expect(t, "putnodeattr", a.pmi2("cmd=info-putnodeattr;key=shm;value=/dev/shm/x;"), "cmd=info-putnodeattr-response;rc=0;")
	expect(t, "getnodeattr waited", <-gotAttr, "cmd=info-getnodeattr-response;rc=0;found=TRUE;value=/dev/shm/x;")
	expect(t, "getnodeattr absent", a.pmi2("cmd=info-getnodeattr;key=other;wait=FALSE;"), "cmd=info-getnodeattr-response;rc=0;found=FALSE;")
	expect(t, "put", a.pmi2("cmd=kvs-put;key=bc-2;value=x;"), "cmd=kvs-put-response;rc=0;")
	done := make(chan string, 1)
	go func() { done <- a.pmi2("cmd=kvs-fence;") }()
	expect(t, "fence b", b.pmi2("cmd=kvs-fence;"), "cmd=kvs-fence-response;rc=0;")
	expect(t, "fence a", <-done, "cmd=kvs-fence-response;rc=0;")
	expect(t, "get", b.pmi2("cmd=kvs-get;jobid=9.0;srcid=-1;key=bc-2;"), "cmd=kvs-get-response;rc=0;found=TRUE;value=x;")
	expect(t, "get remote", b.pmi2("cmd=kvs-get;jobid=9.0;srcid=-1;key=remote;"), "cmd=kvs-get-response;rc=0;found=TRUE;value=r1;")
	expect(t, "get absent", b.pmi2("cmd=kvs-get;jobid=9.0;srcid=-1;key=nope;"), "cmd=kvs-get-response;rc=0;found=FALSE;")
	expect(t, "spawn", b.pmi2("cmd=spawn;ncmds=1;"), "cmd=spawn-response;rc=-1;errmsg=spawn failed;")
	expect(t, "finalize", a.pmi2("cmd=finalize;"), "cmd=finalize-response;rc=0;")
}

func TestInit_VersionsMustAgreeAndBeKnown(t *testing.T) {
	s := NewServer(Step{JobID: 1, Size: 3, Ranks: []uint32{0, 1, 2}})
	defer s.Close()
	a, b, c := dial(t, s, 0), dial(t, s, 1), dial(t, s, 2)
	expect(t, "pmi1", a.pmi1("cmd=init pmi_version=1 pmi_subversion=1"), "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1")
	expect(t, "pmi2 after pmi1", b.pmi1("cmd=init pmi_version=2 pmi_subversion=0"), "cmd=response_to_init rc=-1 pmi_version=2 pmi_subversion=0")
	expect(t, "unknown version", c.pmi1("cmd=init pmi_version=3 pmi_subversion=0"), "cmd=response_to_init rc=-1 pmi_version=3 pmi_subversion=0")
}

func TestFence_FailureReachesEveryTask(t *testing.T) {
	s := NewServer(Step{JobID: 1, Size: 2, Ranks: []uint32{0, 1}, Fence: func([]Pair) ([]Pair, error) {
		return nil, fmt.Errorf("srun went away")
	}})
	defer s.Close()
	a, b := dial(t, s, 0), dial(t, s, 1)
	a.pmi1("cmd=init pmi_version=1 pmi_subversion=1")
	b.pmi1("cmd=init pmi_version=1 pmi_subversion=1")
	out := make(chan string, 1)
	go func() { out <- a.pmi1("cmd=barrier_in") }()
	expect(t, "b", b.pmi1("cmd=barrier_in"), "cmd=barrier_out rc=-1 msg=srun_went_away")
	expect(t, "a", <-out, "cmd=barrier_out rc=-1 msg=srun_went_away")
}

func TestAbort_CallsTheStepsAbort(t *testing.T) {
	got := make(chan string, 2)
	s := NewServer(Step{JobID: 1, Size: 2, Ranks: []uint32{0, 1}, Abort: func(rank uint32, code int, msg string) {
		got <- fmt.Sprintf("%d %d %s", rank, code, msg)
	}})
	defer s.Close()
	a := dial(t, s, 1)
	a.pmi1("cmd=init pmi_version=1 pmi_subversion=1")
	io.WriteString(a.c, "cmd=abort exitcode=3\n")
	select {
	case g := <-got:
		expect(t, "abort", g, "1 3 ")
	case <-time.After(30 * time.Second):
		t.Fatal("abort not reported")
	}
}

// A task waiting in a fence for a node-mate that never comes (it exited) does not keep the
// server from closing at the step's end.
func TestClose_EndsAWaitingFence(t *testing.T) {
	s := NewServer(Step{JobID: 1, Size: 2, Ranks: []uint32{0, 1}})
	a := dial(t, s, 0)
	a.pmi1("cmd=init pmi_version=1 pmi_subversion=1")
	io.WriteString(a.c, "cmd=barrier_in\n")
	time.Sleep(50 * time.Millisecond)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return while a task waited in a fence")
	}
}
