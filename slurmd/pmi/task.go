package pmi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// task is one task's session.
type task struct {
	s     *Server
	c     net.Conn
	r     *bufio.Reader
	local int
	rank  uint32
}

func (t *task) send(msg string) error {
	_, err := io.WriteString(t.c, msg)
	return err
}

// pmi1 serves one PMI-1 request.
func (t *task) pmi1() error {
	line, err := readLine(t.r)
	if err != nil {
		return err
	}
	if strings.HasPrefix(line, "mcmd=") {
		// A spawn: its lines run to "endcmd". Spawning is not offered.
		for line != "endcmd" {
			if line, err = readLine(t.r); err != nil {
				return err
			}
		}
		return t.send("cmd=spawn_result rc=-1\n")
	}
	cmd, args := parsePMI1(line)
	s := t.s
	switch cmd {
	case "get_maxes":
		return t.send(fmt.Sprintf("cmd=maxes rc=0 kvsname_max=%d keylen_max=%d vallen_max=%d\n", MaxKVSName, MaxKeyLen, MaxValLen))
	case "get_universe_size":
		return t.send(fmt.Sprintf("cmd=universe_size rc=0 size=%d\n", s.st.Size))
	case "get_appnum":
		return t.send("cmd=appnum rc=0 appnum=-1\n")
	case "get_my_kvsname":
		return t.send("cmd=my_kvsname rc=0 kvsname=" + s.st.JobIDString() + "\n")
	case "put":
		rc := 0
		if !s.put(args["key"], args["value"]) {
			rc = -1
		}
		return t.send(fmt.Sprintf("cmd=put_result rc=%d\n", rc))
	case "get":
		if v, ok := s.get(args["key"]); ok {
			return t.send("cmd=get_result rc=0 value=" + v + "\n")
		}
		return t.send("cmd=get_result rc=1\n")
	case "getbyidx":
		i, _ := strconv.Atoi(args["idx"])
		if p, ok := s.byIndex(i); ok {
			return t.send(fmt.Sprintf("cmd=getbyidx_results rc=0 nextidx=%d key=%s val=%s\n", i+1, p.Key, p.Value))
		}
		return t.send("cmd=getbyidx_results rc=-2 reason=no_more_keyvals\n")
	case "barrier_in":
		if err := s.fence(); err != nil {
			return t.send("cmd=barrier_out rc=-1 msg=" + strings.ReplaceAll(err.Error(), " ", "_") + "\n")
		}
		return t.send("cmd=barrier_out rc=0\n")
	case "finalize":
		t.send("cmd=finalize_ack rc=0\n")
		return errTaskDone
	case "abort":
		// No answer; the socket stays open (an MPI library reading after its abort must not
		// see it close) until the step, cancelled, ends.
		code, _ := strconv.Atoi(args["exitcode"])
		s.abort(t.rank, code, "")
		return nil
	case "publish_name":
		return t.send("cmd=publish_result info=fail\n")
	case "unpublish_name":
		return t.send("cmd=unpublish_result info=fail\n")
	case "lookup_name":
		return t.send("cmd=lookup_result info=fail\n")
	case "create_kvs", "destroy_kvs":
		return t.send(fmt.Sprintf("cmd=%s rc=-1\n", cmd))
	}
	// An unknown request is refused, and the session goes on.
	t.s.logf("pmi: task %d: unknown PMI-1 request %q", t.rank, line)
	return t.send(fmt.Sprintf("cmd=%s rc=-1\n", cmd))
}

// pmi2 serves one PMI-2 request.
func (t *task) pmi2() error {
	cmd, args, err := readPMI2(t.r)
	if err == errSecondInit {
		t.send(pmi2Frame("cmd=finalize-response;rc=0;"))
		return err
	}
	if err != nil {
		return err
	}
	s := t.s
	reply := func(body string) error { return t.send(pmi2Frame(body)) }
	found := func(cmd, v string, ok bool) error {
		if ok {
			return reply("cmd=" + cmd + ";rc=0;found=TRUE;value=" + v + ";")
		}
		return reply("cmd=" + cmd + ";rc=0;found=FALSE;")
	}
	switch cmd {
	case "fullinit":
		return reply(fmt.Sprintf("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=%d;size=%d;appnum=-1;debugged=FALSE;pmiverbose=FALSE;",
			t.rank, s.st.Size))
	case "finalize":
		reply("cmd=finalize-response;rc=0;")
		return errTaskDone
	case "abort":
		s.abort(t.rank, 1, args["msg"])
		return nil
	case "job-getid":
		return reply("cmd=job-getid-response;rc=0;jobid=" + s.st.JobIDString() + ";")
	case "job-connect":
		return reply("cmd=job-connect-response;rc=-1;errmsg=job connect is not offered;")
	case "job-disconnect":
		return reply("cmd=job-disconnect-response;rc=-1;errmsg=job connect is not offered;")
	case "kvs-put":
		rc := 0
		if !s.put(args["key"], args["value"]) {
			rc = -1
		}
		return reply(fmt.Sprintf("cmd=kvs-put-response;rc=%d;", rc))
	case "kvs-fence":
		if err := s.fence(); err != nil {
			return reply("cmd=kvs-fence-response;rc=-1;errmsg=" + strings.ReplaceAll(err.Error(), ";", "_") + ";")
		}
		return reply("cmd=kvs-fence-response;rc=0;")
	case "kvs-get":
		v, ok := s.get(args["key"])
		return found("kvs-get-response", v, ok)
	case "info-getnodeattr":
		v, ok := s.nodeAttr(args["key"], args["wait"] == "TRUE")
		return found("info-getnodeattr-response", v, ok)
	case "info-putnodeattr":
		s.putNodeAttr(args["key"], args["value"])
		return reply("cmd=info-putnodeattr-response;rc=0;")
	case "info-getjobattr":
		v, ok := s.jobAttr(args["key"])
		return found("info-getjobattr-response", v, ok)
	case "name-publish":
		return reply("cmd=name-publish-response;rc=-1;")
	case "name-unpublish":
		return reply("cmd=name-unpublish-response;rc=-1;")
	case "name-lookup":
		return reply("cmd=name-lookup-response;rc=1;")
	case "spawn":
		return reply("cmd=spawn-response;rc=-1;errmsg=spawn failed;")
	case "ring":
		return reply("cmd=ring-response;rc=-1;")
	}
	t.s.logf("pmi: task %d: unknown PMI-2 request %q", t.rank, cmd)
	return reply("cmd=" + cmd + "-response;rc=-1;")
}
