package conf

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// NodeGres is one generic resource a node has, as the controller counts it: Count units of
// Name of Type ("" when untyped).
type NodeGres struct {
	Name  string
	Type  string
	Count uint64
	// Files says gres.conf names device files for it (File=): only then does a job get
	// device variables (CUDA_VISIBLE_DEVICES...) for it, as in Slurm.
	Files bool
}

// NodeGres is node n's generic resources in configuration order, from its slurm.conf Gres=
// list ("gpu:4,gpu:a100:2,nic"; a "(S:0-1)" socket binding is ignored). An element without
// a count takes it from the gres.conf lines of the node with that name and type (Count=, or
// one per File= device), else 1. Elements that do not parse, or whose count is 0, are left
// out: the node simply does not offer them.
func (c *Config) NodeGres(n *Node) []NodeGres {
	if n == nil || n.Gres == "" {
		return nil
	}
	var out []NodeGres
	for _, el := range strings.Split(n.Gres, ",") {
		if i := strings.IndexByte(el, '('); i >= 0 {
			el = el[:i]
		}
		parts := strings.Split(el, ":")
		if parts[0] == "" || len(parts) > 3 {
			continue
		}
		g := NodeGres{Name: parts[0]}
		count, counted := uint64(0), false
		switch len(parts) {
		case 3:
			g.Type = parts[1]
			n, ok := gresCount(parts[2])
			if !ok {
				continue
			}
			count, counted = n, true
		case 2:
			if n, ok := gresCount(parts[1]); ok {
				count, counted = n, true
			} else {
				g.Type = parts[1]
			}
		}
		confCount, files := c.gresConfCount(n.Name, g.Name, g.Type)
		if !counted {
			count = confCount
		}
		g.Files = files
		if count == 0 {
			continue
		}
		g.Count = count
		out = append(out, g)
	}
	return out
}

// gresConfCount is what gres.conf says node has of name (and typ, when given): the sum of its
// lines' Count=, or of their File= devices; 1 when gres.conf says nothing. files says some
// line names device files.
func (c *Config) gresConfCount(node, name, typ string) (count uint64, files bool) {
	if c.Gres == nil {
		return 1, false
	}
	var n uint64
	found := false
	for _, l := range c.Gres.Lines {
		if l.Name != name || (typ != "" && l.Type != typ) {
			continue
		}
		if l.NodeName != "" && !containsStr(l.Nodes, node) {
			continue
		}
		found = true
		switch {
		case l.Count > 0:
			n += l.Count
			files = files || l.File != ""
		case l.File != "":
			f, err := hostlist.Expand(l.File)
			if err == nil {
				n += uint64(len(f))
				files = true
			}
		default:
			n++
		}
	}
	if !found {
		return 1, false
	}
	return n, files
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
