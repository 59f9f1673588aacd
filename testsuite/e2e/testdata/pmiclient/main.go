// Command pmiclient is a PMI client for the end-to-end tests, speaking to slurmstepd as an
// MPI library does through PMI_FD: `pmiclient 1` (PMI-1, MPICH's simple PMI) or
// `pmiclient 2` (PMI-2) puts a card under its rank, goes through a fence, reads every
// rank's card and the process mapping, goes through a second fence with a second card, and
// prints one line: "rank R size N mapping M cards C1,C2,... second S1,S2,...".
// `pmiclient abort` asks PMI to abort the step from rank 0 (the others wait to be killed).
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fail("usage: pmiclient 1|2|abort")
	}
	fd, err := strconv.Atoi(os.Getenv("PMI_FD"))
	if err != nil {
		fail("PMI_FD: %v", err)
	}
	rank, _ := strconv.Atoi(os.Getenv("PMI_RANK"))
	size, _ := strconv.Atoi(os.Getenv("PMI_SIZE"))
	c, err := net.FileConn(os.NewFile(uintptr(fd), "pmi"))
	if err != nil {
		fail("PMI_FD %d: %v", fd, err)
	}
	p := &pmi{c: c, r: bufio.NewReader(c)}
	switch os.Args[1] {
	case "1":
		p.v1(rank, size)
	case "2":
		p.v2(rank, size)
	case "abort":
		p.line("cmd=init pmi_version=1 pmi_subversion=1")
		if rank == 0 {
			io.WriteString(c, "cmd=abort exitcode=7\n")
		}
		time.Sleep(time.Minute)
	default:
		fail("unknown mode %q", os.Args[1])
	}
}

type pmi struct {
	c net.Conn
	r *bufio.Reader
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pmiclient: "+format+"\n", args...)
	os.Exit(1)
}

// line sends a PMI-1 line and returns the answer's fields.
func (p *pmi) line(req string) map[string]string {
	if _, err := io.WriteString(p.c, req+"\n"); err != nil {
		fail("%s: %v", req, err)
	}
	ans, err := p.r.ReadString('\n')
	if err != nil {
		fail("%s: %v", req, err)
	}
	return fields(strings.Fields(ans))
}

// msg sends a PMI-2 request and returns the answer's fields.
func (p *pmi) msg(req string) map[string]string {
	if _, err := fmt.Fprintf(p.c, "%-6d%s", len(req), req); err != nil {
		fail("%s: %v", req, err)
	}
	var head [6]byte
	if _, err := io.ReadFull(p.r, head[:]); err != nil {
		fail("%s: %v", req, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(head[:])))
	if err != nil {
		fail("%s: length %q", req, head)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(p.r, body); err != nil {
		fail("%s: %v", req, err)
	}
	return fields(strings.Split(string(body), ";"))
}

func fields(kvs []string) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func must(m map[string]string, what string) map[string]string {
	if m["rc"] != "0" {
		fail("%s: %v", what, m)
	}
	return m
}

func (p *pmi) v1(rank, size int) {
	must(p.line("cmd=init pmi_version=1 pmi_subversion=1"), "init")
	kvs := must(p.line("cmd=get_my_kvsname"), "kvsname")["kvsname"]
	node := os.Getenv("SLURMD_NODENAME")
	must(p.line(fmt.Sprintf("cmd=put kvsname=%s key=card-%d value=%s-%d", kvs, rank, node, rank)), "put")
	must(p.line("cmd=barrier_in"), "barrier")
	mapping := must(p.line("cmd=get kvsname="+kvs+" key=PMI_process_mapping"), "mapping")["value"]
	var cards []string
	for r := 0; r < size; r++ {
		cards = append(cards, must(p.line(fmt.Sprintf("cmd=get kvsname=%s key=card-%d", kvs, r)), "get")["value"])
	}
	must(p.line(fmt.Sprintf("cmd=put kvsname=%s key=second-%d value=%d", kvs, rank, rank*10)), "put")
	must(p.line("cmd=barrier_in"), "barrier")
	var second []string
	for r := 0; r < size; r++ {
		second = append(second, must(p.line(fmt.Sprintf("cmd=get kvsname=%s key=second-%d", kvs, r)), "get")["value"])
	}
	if p.line("cmd=finalize")["cmd"] != "finalize_ack" {
		fail("finalize")
	}
	fmt.Printf("rank %d size %d mapping %s cards %s second %s\n", rank, size, mapping, strings.Join(cards, ","), strings.Join(second, ","))
}

func (p *pmi) v2(rank, size int) {
	if p.line("cmd=init pmi_version=2 pmi_subversion=0")["rc"] != "0" {
		fail("init")
	}
	init := must(p.msg(fmt.Sprintf("cmd=fullinit;pmijobid=%s;pmirank=%d;threaded=FALSE;", os.Getenv("PMI_JOBID"), rank)), "fullinit")
	if init["rank"] != strconv.Itoa(rank) || init["size"] != strconv.Itoa(size) {
		fail("fullinit answered %v for rank %d of %d", init, rank, size)
	}
	node := os.Getenv("SLURMD_NODENAME")
	must(p.msg(fmt.Sprintf("cmd=kvs-put;key=card-%d;value=%s-%d;", rank, node, rank)), "put")
	must(p.msg("cmd=kvs-fence;"), "fence")
	mapping := must(p.msg("cmd=info-getjobattr;key=PMI_process_mapping;"), "mapping")["value"]
	var cards []string
	for r := 0; r < size; r++ {
		cards = append(cards, must(p.msg(fmt.Sprintf("cmd=kvs-get;jobid=%s;srcid=-1;key=card-%d;", os.Getenv("PMI_JOBID"), r)), "get")["value"])
	}
	must(p.msg(fmt.Sprintf("cmd=kvs-put;key=second-%d;value=%d;", rank, rank*10)), "put")
	must(p.msg("cmd=kvs-fence;"), "fence")
	var second []string
	for r := 0; r < size; r++ {
		second = append(second, must(p.msg(fmt.Sprintf("cmd=kvs-get;jobid=%s;srcid=-1;key=second-%d;", os.Getenv("PMI_JOBID"), r)), "get")["value"])
	}
	must(p.msg("cmd=finalize;"), "finalize")
	fmt.Printf("rank %d size %d mapping %s cards %s second %s\n", rank, size, mapping, strings.Join(cards, ","), strings.Join(second, ","))
}
