package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/orbit-hpc/orbit/slurmd/pmi"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// pmiShare serves PMI to one node share's tasks of an srun --mpi=pmi2 step: the server
// (slurmd/pmi) answers the tasks, and its fences travel to srun on the share's I/O
// connection (stepio's PMI frames), where the step's nodes meet.
type pmiShare struct {
	srv   *pmi.Server
	out   *stepio.Share
	node  uint32
	mu    sync.Mutex
	reply chan []byte   // the fence waiting for srun's answer, if any
	ended chan struct{} // closed when the share ends: a waiting fence fails
	once  sync.Once
}

// errStepEnded fails a fence still waiting when the node's share ends.
var errStepEnded = errors.New("the step ended before the fence completed")

// startPMI sets up PMI for the share's tasks when the launch asks for it: each task gets
// its socket (inherited at its own number) and PMI_FD, PMI_JOBID, PMI_RANK and PMI_SIZE.
// Nil when the step has no PMI.
func startPMI(l *stepdlaunch.Step, out *stepio.Share, spec *stepd.StepSpec, log *slog.Logger) (*pmiShare, error) {
	m := &l.Msg
	if m.PMISize == 0 {
		return nil, nil
	}
	p := &pmiShare{out: out, node: m.NodeID, ended: make(chan struct{})}
	p.srv = pmi.NewServer(pmi.Step{
		JobID: m.JobID, StepID: m.StepID, Size: int(m.PMISize), Ranks: m.Ranks, Mapping: m.PMIMapping,
		Fence: p.fence,
		Abort: func(rank uint32, code int, msg string) {
			log.Info("PMI abort", "job", m.JobID, "step", m.StepID, "rank", rank, "code", code, "msg", msg)
			out.Write(stepio.PMIAbort, rank, binary.BigEndian.AppendUint32(nil, uint32(code)))
		},
		Logf: func(format string, args ...any) {
			log.Warn(fmt.Sprintf(format, args...), "job", m.JobID, "step", m.StepID)
		},
	})
	out.OnFence(p.answer)
	for i := range spec.Tasks {
		f, err := p.srv.TaskSocket(i)
		if err != nil {
			p.close()
			return nil, err
		}
		t := &spec.Tasks[i]
		t.Inherit = f
		t.Env = append(t.Env, p.srv.Env(i, f.Fd())...)
	}
	return p, nil
}

// fence sends the node's puts to srun and waits for every node's.
func (p *pmiShare) fence(puts []pmi.Pair) ([]pmi.Pair, error) {
	var data []byte
	for _, kv := range puts {
		data = stepio.AppendPair(data, kv.Key, kv.Value)
	}
	reply := make(chan []byte, 1)
	p.mu.Lock()
	p.reply = reply
	p.mu.Unlock()
	if err := p.out.WritePairs(data); err != nil {
		return nil, fmt.Errorf("cannot reach srun: %v", err)
	}
	if err := p.out.Write(stepio.PMIFence, p.node, nil); err != nil {
		return nil, fmt.Errorf("cannot reach srun: %v", err)
	}
	select {
	case all := <-reply:
		var pairs []pmi.Pair
		if err := stepio.EachPair(all, func(k, v string) { pairs = append(pairs, pmi.Pair{Key: k, Value: v}) }); err != nil {
			return nil, err
		}
		return pairs, nil
	case <-p.ended:
		return nil, errStepEnded
	}
}

// answer takes srun's completion of a fence for the node.
func (p *pmiShare) answer(pairs []byte) {
	p.mu.Lock()
	reply := p.reply
	p.reply = nil
	p.mu.Unlock()
	if reply != nil {
		reply <- pairs
	}
}

// close ends the share's PMI: a fence still waiting fails, the tasks' sockets close.
func (p *pmiShare) close() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.ended)
		p.srv.Close()
	})
}
