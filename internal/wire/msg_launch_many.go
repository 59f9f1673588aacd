package wire

import "fmt"

// Wide steps (issue 9): srun sends each slurmd one LaunchTasksMany for all the step's nodes
// that slurmd hosts, instead of one LaunchTasks per node. With one slurmd per node (a real
// cluster) that is one node per message, as before; a slurmd emulating hundreds of nodes
// gets one message, checks it once and starts one slurmstepd for all of them.

// MaxLaunchNodes bounds the nodes of one LaunchTasksMany (a garbled or hostile request must
// not make slurmd allocate without limit).
const MaxLaunchNodes = 65536

// LaunchTasksMany is one step's launch on several nodes. Common holds everything the nodes
// share (NodeName, NodeID, Ranks, StepGTIDs, CPUsOnNode and the per-task file names are
// ignored there); Common.Environment is the step's environment without the node's own
// variables, which each LaunchNode appends.
type LaunchTasksMany struct {
	Common LaunchTasks  `codec:"common"`
	Nodes  []LaunchNode `codec:"nodes"`
}

// LaunchNode is what differs from node to node in a LaunchTasksMany.
type LaunchNode struct {
	NodeName   string   `codec:"node_name"`
	NodeID     uint32   `codec:"node_id"`
	Ranks      []uint32 `codec:"ranks"`
	StepGTIDs  string   `codec:"gtids"`
	CPUsOnNode uint32   `codec:"cpus_on_node"`
	// Env is appended to Common.Environment: the node's SLURM_NODEID, SLURM_CPUS_ON_NODE,
	// SLURM_GTIDS and the like.
	Env    []string `codec:"env"`
	StdOut []string `codec:"std_out"`
	StdErr []string `codec:"std_err"`
	StdIn  []string `codec:"std_in"`
}

// LaunchResult is one node's answer to a LaunchTasksMany: Errno 0 once its tasks run, or
// the error a LaunchTasks for that node alone would have got.
type LaunchResult struct {
	NodeName string `codec:"node_name"`
	Errno    int32  `codec:"errno"`
	Text     string `codec:"text,omitempty"`
}

// LaunchTasksManyReply answers a LaunchTasksMany, one result per node, in order.
type LaunchTasksManyReply struct {
	Results []LaunchResult `codec:"results"`
}

// Node is the LaunchTasks node i of m would have been sent alone.
func (m *LaunchTasksMany) Node(i int) LaunchTasks {
	n := &m.Nodes[i]
	l := m.Common
	l.NodeName, l.NodeID, l.Ranks, l.StepGTIDs, l.CPUsOnNode = n.NodeName, n.NodeID, n.Ranks, n.StepGTIDs, n.CPUsOnNode
	l.Environment = make([]string, 0, len(m.Common.Environment)+len(n.Env))
	l.Environment = append(append(l.Environment, m.Common.Environment...), n.Env...)
	l.StdOut, l.StdErr, l.StdIn = n.StdOut, n.StdErr, n.StdIn
	return l
}

// Validate checks the shape of m: at least one node and at most MaxLaunchNodes, each named
// once, with tasks, and per-task file names matching its tasks.
func (m *LaunchTasksMany) Validate() error {
	if len(m.Nodes) == 0 {
		return fmt.Errorf("launch names no node")
	}
	if len(m.Nodes) > MaxLaunchNodes {
		return fmt.Errorf("launch names %d nodes, more than %d", len(m.Nodes), MaxLaunchNodes)
	}
	seen := make(map[string]bool, len(m.Nodes))
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.NodeName == "" || seen[n.NodeName] {
			return fmt.Errorf("launch node %d: empty or repeated node name %q", i, n.NodeName)
		}
		seen[n.NodeName] = true
		if len(n.Ranks) == 0 {
			return fmt.Errorf("launch node %s: no tasks", n.NodeName)
		}
		for _, names := range [][]string{n.StdOut, n.StdErr, n.StdIn} {
			if len(names) != 0 && len(names) != len(n.Ranks) {
				return fmt.Errorf("launch node %s: output file names do not match the tasks", n.NodeName)
			}
		}
	}
	return nil
}

func init() {
	Register(MsgLaunchTasksMany, "REQUEST_LAUNCH_TASKS_MANY", func() any { return new(LaunchTasksMany) })
	Register(MsgLaunchTasksReply, "RESPONSE_LAUNCH_TASKS_MANY", func() any { return new(LaunchTasksManyReply) })
}
