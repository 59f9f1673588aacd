package options

import (
	"fmt"
	"slices"
	"testing"
)

// TestSettleNodesAndTasks: sbatch and salloc settle the node and task counts as Slurm
// 22.05's _opt_verify (lines and counts from the reference): fewer tasks than nodes lower
// the nodes, with a warning, and a --nodelist keeps its first nodes; the maximum node count
// is at most the tasks; a --nodelist asks for at least its nodes.
func TestSettleNodesAndTasks(t *testing.T) {
	for _, c := range []struct {
		args     []string
		min, max uint32
		nodelist string
		warnings []string
	}{
		{[]string{"-N3", "-n2"}, 2, 2, "", []string{"%s: Warning: can't run 2 processes on 3 nodes, setting nnodes to 2\n"}},
		{[]string{"-w", "n[1-3]", "-n2"}, 2, 2, "n[1-2]", []string{"%s: Warning: can't run 2 processes on 3 nodes, setting nnodes to 2\n"}},
		{[]string{"-N2-4", "-n3"}, 2, 3, "", nil},
		{[]string{"-w", "n[1-2]"}, 2, 0, "n[1-2]", nil},
		{[]string{"-w", "n[1-2]", "-N3"}, 3, 3, "n[1-2]", nil},
	} {
		for _, cmd := range []string{"sbatch", "salloc"} {
			var err error
			var min, max uint32
			var nodelist string
			var warnings []string
			if cmd == "sbatch" {
				js, e := ParseSbatch(append(append([]string{"sbatch"}, c.args...), "s.sh"), nil, []byte(okScript), now)
				if err = e; js != nil {
					min, max, nodelist, warnings = js.MinNodes, js.MaxNodes, js.NodeList, js.Warnings
				}
			} else {
				js, e := ParseSalloc(append(append([]string{"salloc"}, c.args...), "true"), nil, "/tmp", now)
				if err = e; js != nil {
					min, max, nodelist, warnings = js.MinNodes, js.MaxNodes, js.NodeList, js.Warnings
				}
			}
			var want []string
			for _, w := range c.warnings {
				want = append(want, fmt.Sprintf(w, cmd))
			}
			if err != nil || min != c.min || max != c.max || nodelist != c.nodelist || !slices.Equal(warnings, want) {
				t.Errorf("%s %q: %v, -N %d-%d, nodelist %q, warnings %q; want -N %d-%d, %q, %q",
					cmd, c.args, err, min, max, nodelist, warnings, c.min, c.max, c.nodelist, want)
			}
		}
	}
}
