package main

import "github.com/orbit-hpc/orbit/compat/states"

// filterOut reports whether -n, -d, -r or the state list removes node n (Slurm's
// _filter_out).
func (p *params) filterOut(n *nodeRec) bool {
	if p.nodeSet != nil && !p.nodeSet[n.Name] {
		return true
	}
	noResp := n.state&states.NodeNoRespond != 0
	if p.dead && !noResp {
		return true
	}
	if p.responded && noResp {
		return true
	}
	if p.stateSet {
		return !matchStates(p.states, n)
	}
	return false
}

// matchStates applies a -t list to one node: any entry (or, with "&", every entry) must
// match. An empty list matches nothing, as in Slurm ("-t ," shows no node).
func matchStates(f states.NodeStateFilter, n *nodeRec) bool {
	match := false
	for _, want := range f.States {
		match = matchState(want, n)
		if !f.And && match {
			break
		}
		if f.And && !match {
			break
		}
	}
	return match
}

// matchState is one entry of the list: DRAIN matches any draining or drained node, DRAINING
// and DRAINED their own kind, a flag any node with it, ALLOCATED any node with CPUs in use
// (MIXED ones too), and another base state the node's base state.
func matchState(want states.NodeState, n *nodeRec) bool {
	st := n.state
	switch {
	case want == states.NodeDrain:
		return st&states.NodeDrain != 0
	case draining(want):
		return draining(st)
	case drained(want):
		return drained(st)
	case want&states.NodeStateFlags != 0:
		return want&st != 0
	case want == states.NodeAllocated:
		return n.AllocCPUs > 0
	}
	return st.Base() == want
}

func draining(s states.NodeState) bool {
	b := s.Base()
	return s&states.NodeDrain != 0 && (b == states.NodeAllocated || b == states.NodeMixed)
}

func drained(s states.NodeState) bool {
	return s&states.NodeDrain != 0 && !draining(s)
}
