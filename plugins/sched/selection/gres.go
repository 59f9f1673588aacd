package selection

import "github.com/orbit-hpc/orbit/plugins/scheduler"

// GresFits says whether a node with GRES node, of which used is in use (one count per entry
// of node), has room for req on it: each request is served by the entries of its name (of
// its type, when it names one), in configuration order, as TakeGres would take them. An
// untyped entry never serves a typed request, as in Slurm.
func GresFits(node []scheduler.Gres, used []uint64, req []scheduler.Gres) bool {
	_, ok := takeGres(node, used, req, false)
	return ok
}

// TakeGres is what req takes of node's GRES (used in use), by name and type, in the order of
// node's entries; false when it does not fit.
func TakeGres(node []scheduler.Gres, used []uint64, req []scheduler.Gres) ([]scheduler.Gres, bool) {
	return takeGres(node, used, req, true)
}

func takeGres(node []scheduler.Gres, used []uint64, req []scheduler.Gres, build bool) ([]scheduler.Gres, bool) {
	var buf [8]uint64 // what earlier requests of req took, per entry: no allocation for small nodes
	taken := buf[:0]
	if len(node) <= len(buf) {
		taken = buf[:len(node)]
	} else {
		taken = make([]uint64, len(node))
	}
	// Typed requests first: an untyped one may then take whatever type is left, which
	// serves both when the node can.
	for pass := 0; pass < 2; pass++ {
		for _, r := range req {
			if (r.Type == "") != (pass == 1) {
				continue
			}
			if !takeOne(node, used, taken, r) {
				return nil, false
			}
		}
	}
	if !build {
		return nil, true
	}
	var out []scheduler.Gres
	for e, n := range taken {
		if n > 0 {
			out = append(out, scheduler.Gres{Name: node[e].Name, Type: node[e].Type, Count: n})
		}
	}
	return out, true
}

// takeOne adds to taken what r takes of node's entries, in order; false when they fall short.
func takeOne(node []scheduler.Gres, used, taken []uint64, r scheduler.Gres) bool {
	left := r.Count
	for e := range node {
		g := &node[e]
		if left == 0 {
			break
		}
		if g.Name != r.Name || (r.Type != "" && g.Type != r.Type) {
			continue
		}
		var u uint64
		if e < len(used) {
			u = used[e]
		}
		free := g.Count - min(g.Count, u+taken[e])
		n := min(free, left)
		taken[e] += n
		left -= n
	}
	return left == 0
}

// GresEver says whether a node with GRES node could ever hold req (nothing in use).
func GresEver(node []scheduler.Gres, req []scheduler.Gres) bool {
	return len(req) == 0 || GresFits(node, nil, req)
}
