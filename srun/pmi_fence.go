package main

import (
	"net"
	"sync"

	"github.com/orbit-hpc/orbit/srun/stepio"
)

// pmiFences is srun's end of the PMI fences of an --mpi=pmi2 step, as the root of Slurm's
// mpi/pmi2 tree: each node sends the pairs its tasks put and says when all of them have
// entered the fence; once every node of the step has, srun sends every node's pairs to each
// connection, then completes the fence for each node it carries.
type pmiFences struct {
	nodes int // nodes of the step

	mu      sync.Mutex
	pairs   []byte              // this fence's puts so far, every node's
	entered map[uint32]net.Conn // nodes in the fence → their connection
	writers map[net.Conn]*stepio.Writer
}

func newPMIFences(nodes int) *pmiFences {
	return &pmiFences{nodes: nodes, entered: map[uint32]net.Conn{}, writers: map[net.Conn]*stepio.Writer{}}
}

// put adds a node's pairs (PMIPut data) to the current fence.
func (p *pmiFences) put(data []byte) {
	if stepio.EachPair(data, func(string, string) {}) != nil {
		return // a node sends whole pairs; anything else is dropped rather than relayed
	}
	p.mu.Lock()
	p.pairs = append(p.pairs, data...)
	p.mu.Unlock()
}

// enter records that node (served by c) has entered the fence; the last node completes it.
func (p *pmiFences) enter(node uint32, c net.Conn) {
	p.mu.Lock()
	if int(node) >= p.nodes {
		p.mu.Unlock()
		return
	}
	p.entered[node] = c
	if len(p.entered) < p.nodes {
		p.mu.Unlock()
		return
	}
	pairs, entered := p.pairs, p.entered
	p.pairs, p.entered = nil, map[uint32]net.Conn{}
	byConn := map[net.Conn][]uint32{}
	for n, c := range entered {
		byConn[c] = append(byConn[c], n)
	}
	ws := make(map[net.Conn]*stepio.Writer, len(byConn))
	for c := range byConn {
		w := p.writers[c]
		if w == nil {
			w = stepio.NewWriter(c)
			p.writers[c] = w
		}
		ws[c] = w
	}
	p.mu.Unlock()
	// A connection that fails is the end of its nodes' tasks; the others are still answered.
	for c, nodes := range byConn {
		w := ws[c]
		if w.WritePairs(0, pairs) != nil {
			continue
		}
		for _, n := range nodes {
			if w.Write(stepio.PMIFence, n, nil) != nil {
				break
			}
		}
	}
}
