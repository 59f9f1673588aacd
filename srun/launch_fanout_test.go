package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestLaunchMany_NodeEnvSplit: the launch carries the step's environment once and each
// node's own variables apart; what a node rebuilds (wire.LaunchTasksMany.Node) is exactly
// the environment stepEnv.nodeEnv gives that node, even when srun's own environment already
// sets the node's variables (a step inside a step).
func TestLaunchMany_NodeEnvSplit(t *testing.T) {
	step := &wire.StepCreateReply{JobID: 5, StepID: 2, Nodes: []string{"n1", "n2", "n3"}, NodeList: "n[1-3]",
		Tasks: []uint32{2, 2, 1}, CPUsOnNode: []uint32{2, 2, 1}, JobCPUs: []uint32{2, 2, 1}, NumTasks: 5,
		Addrs: []string{"a:1", "b:1", "a:1"}}
	e := &stepEnv{base: []string{"HOME=/h", "SLURM_NODEID=7", "SLURM_GTIDS=9", "PATH=/bin"}, step: step,
		commHost: "127.0.0.1", commPort: 1}
	ranks := [][]uint32{{0, 1}, {2, 3}, {4}}
	launches := make([]*wire.LaunchTasks, 3)
	envs := make([][]string, 3)
	for i := range launches {
		launches[i] = &wire.LaunchTasks{NodeName: step.Nodes[i], NodeID: uint32(i), Ranks: ranks[i]}
		envs[i] = e.nodeEnv(i, ranks[i])
	}
	for i, env := range envs {
		tail := env[len(env)-nodeEnvVars:]
		for k, name := range []string{"SLURM_NODEID", "SLURM_CPUS_ON_NODE", "SLURM_GTIDS", "SLURM_TOPOLOGY_ADDR", "SLURM_TOPOLOGY_ADDR_PATTERN"} {
			if !strings.HasPrefix(tail[k], name+"=") {
				t.Errorf("node %d: variable %d from the end is %q, want %s", i, nodeEnvVars-k, tail[k], name)
			}
		}
	}
	common := &wire.LaunchTasks{JobID: 5, StepID: 2, Environment: envs[0][:len(envs[0])-nodeEnvVars]}
	groups := groupByAddr(step.Addrs)
	if len(groups) != 2 || !slices.Equal(groups[0].nodes, []int{0, 2}) || !slices.Equal(groups[1].nodes, []int{1}) {
		t.Fatalf("groups %+v %+v, want a:[0 2] b:[1]", groups[0], groups[1])
	}
	for _, g := range groups {
		m := launchMany(common, g, launches, envs, nodeEnvVars)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		for k, i := range g.nodes {
			got := m.Node(k)
			if got.NodeName != step.Nodes[i] || !slices.Equal(got.Ranks, ranks[i]) || !slices.Equal(got.Environment, envs[i]) {
				t.Errorf("node %d rebuilt as %s ranks %v env %q; want env %q", i, got.NodeName, got.Ranks, got.Environment, envs[i])
			}
		}
	}
}

// TestNodeEnv_TasksPerNodeAndNoAlloc: a step's environment carries srun's --ntasks-per-node
// (SLURM_NTASKS_PER_NODE, as the reference's tasks see it); an srun -Z step's has none of the
// job's variables the reference's lacks, and every node still rebuilds its own environment.
func TestNodeEnv_TasksPerNodeAndNoAlloc(t *testing.T) {
	step := &wire.StepCreateReply{JobID: wire.MinNoAllocJobID, StepID: 2, Nodes: []string{"n1", "n2"}, NodeList: "n[1-2]",
		Tasks: []uint32{2, 2}, CPUsOnNode: []uint32{2, 2}, JobCPUs: []uint32{2, 2}, NumTasks: 4, Addrs: []string{"a:1", "a:1"}}
	has := func(env []string, name string) bool {
		return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	}
	e := &stepEnv{step: step, tasksPerNode: 2}
	if env := e.nodeEnv(0, []uint32{0, 1}); !slices.Contains(env, "SLURM_NTASKS_PER_NODE=2") || !has(env, "SLURM_JOB_ID") {
		t.Errorf("--ntasks-per-node=2 step: %q", env)
	}
	e = &stepEnv{step: step, noAlloc: true}
	envs := [][]string{e.nodeEnv(0, []uint32{0, 1}), e.nodeEnv(1, []uint32{2, 3})}
	for name := range noAllocUnset {
		if has(envs[0], name) || has(envs[1], name) {
			t.Errorf("srun -Z step has %s", name)
		}
	}
	launches := []*wire.LaunchTasks{{NodeName: "n1", NodeID: 0, Ranks: []uint32{0, 1}}, {NodeName: "n2", NodeID: 1, Ranks: []uint32{2, 3}}}
	nodeVars := nodeEnvCount(step)
	common := &wire.LaunchTasks{Environment: envs[0][:len(envs[0])-nodeVars]}
	m := launchMany(common, groupByAddr(step.Addrs)[0], launches, envs, nodeVars)
	for k := range m.Nodes {
		got := append(slices.Clone(common.Environment), m.Nodes[k].Env...)
		if !slices.Equal(got, envs[k]) {
			t.Errorf("node %d rebuilds %q, want %q", k, got, envs[k])
		}
	}
}
