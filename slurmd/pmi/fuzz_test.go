package pmi

import (
	"io"
	"net"
	"testing"
	"time"
)

// FuzzTaskRequests feeds a task's socket arbitrary bytes, in either protocol: the server
// answers or ends the session, and never panics or hangs past its Close.
func FuzzTaskRequests(f *testing.F) {
	f.Add([]byte("cmd=init pmi_version=1 pmi_subversion=1\ncmd=put kvsname=1.0 key=a value=b\ncmd=barrier_in\ncmd=get key=a\ncmd=getbyidx idx=0\ncmd=finalize\n"))
	f.Add([]byte("cmd=init pmi_version=2 pmi_subversion=0\n40    cmd=fullinit;pmijobid=1.0;pmirank=0;threaded=FALSE;"))
	f.Add([]byte("cmd=init pmi_version=2 pmi_subversion=0\n21    cmd=kvs-put;key=a;value=b;11    cmd=kvs-fence;0     "))
	f.Add([]byte("cmd=init pmi_version=1 pmi_subversion=1\nmcmd=spawn\nnprocs=2\nendcmd\n"))
	f.Add([]byte("cmd=init pmi_version=2 pmi_subversion=0\nxx    "))
	f.Fuzz(func(t *testing.T, in []byte) {
		s := NewServer(Step{JobID: 1, Size: 1, Ranks: []uint32{0}, Mapping: "(vector,(0,1,1))"})
		task, srv := net.Pipe()
		if err := s.serve(srv, 0); err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, task) // the answers
		go func() {
			task.Write(in)
			task.Close()
		}()
		time.AfterFunc(50*time.Millisecond, s.Close) // a request may wait (a node attribute)
		s.wg.Wait()
		s.Close()
	})
}
