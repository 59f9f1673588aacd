package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// stepVars runs srun's option parsing on args and env (a job's environment for srun inside
// it), builds node 0's task environment for a step of ntasks tasks on nnodes nodes, and
// returns its SLURM_DISTRIBUTION/_MEM_BIND/_CPU_BIND/_THREADS_PER_CORE/DIST_PLANESIZE
// entries, sorted.
func stepVars(t *testing.T, args, env []string, ntasks uint32, nnodes int, inAlloc bool) []string {
	t.Helper()
	env = inputEnv(env)
	o, err := parseArgs(append(args, "true"), env)
	if err != nil {
		t.Fatalf("%q %q: %v", args, env, err)
	}
	mergeMemBind(&o.spec.Site, env)
	step := &wire.StepCreateReply{NumTasks: ntasks}
	for i := 0; i < nnodes; i++ {
		step.Nodes = append(step.Nodes, "n")
		step.CPUsOnNode = append(step.CPUsOnNode, 1)
		step.Tasks = append(step.Tasks, ntasks/uint32(nnodes))
	}
	e := &stepEnv{base: env, step: step, inAlloc: inAlloc, site: o.spec.Site}
	var out []string
	for _, kv := range e.nodeEnv(0, []uint32{0}) {
		for _, p := range []string{"SLURM_DISTRIBUTION=", "SLURM_DIST_PLANESIZE=", "SLURM_MEM_BIND", "SLURM_CPU_BIND", "SLURM_THREADS_PER_CORE="} {
			if strings.HasPrefix(kv, p) {
				out = append(out, kv)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestStepEnv_Binding pins the cases the reference showed (testsuite/jobscripts stepenv*):
// the default distribution by tasks and nodes, an inherited or given one, the rewritten
// SLURM_MEM_BIND, and the cpu binding --threads-per-core or a kept --hint implies.
func TestStepEnv_Binding(t *testing.T) {
	job := []string{"SLURM_JOB_ID=5", "SLURM_JOB_NODELIST=n1", "SLURM_JOB_NUM_NODES=1"}
	with := func(extra ...string) []string { return append(slices.Clone(job), extra...) }
	memLocal := []string{"SLURM_MEM_BIND=quiet,local", "SLURM_MEM_BIND_LIST=", "SLURM_MEM_BIND_TYPE=local", "SLURM_MEM_BIND_VERBOSE=quiet"}
	threads := []string{"SLURM_CPU_BIND=quiet,threads", "SLURM_CPU_BIND_LIST=", "SLURM_CPU_BIND_TYPE=threads", "SLURM_CPU_BIND_VERBOSE=quiet"}
	cores := []string{"SLURM_CPU_BIND=quiet,cores", "SLURM_CPU_BIND_LIST=", "SLURM_CPU_BIND_TYPE=cores", "SLURM_CPU_BIND_VERBOSE=quiet"}
	join := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		name    string
		args    []string
		env     []string
		ntasks  uint32
		inAlloc bool
		want    []string
	}{
		{"own allocation", nil, nil, 2, false, nil},
		{"own allocation -m cyclic", []string{"-N1", "-m", "cyclic"}, nil, 1, false, []string{"SLURM_DISTRIBUTION=cyclic"}},
		{"one task per node", nil, with(), 1, true, []string{"SLURM_DISTRIBUTION=cyclic"}},
		{"more tasks than nodes", nil, with(), 2, true, []string{"SLURM_DISTRIBUTION=block"}},
		{"inherited over the default", nil, with("SLURM_DISTRIBUTION=cyclic"), 2, true, []string{"SLURM_DISTRIBUTION=cyclic"}},
		{"-m over inherited", []string{"-m", "block"}, with("SLURM_DISTRIBUTION=cyclic"), 1, true, []string{"SLURM_DISTRIBUTION=block"}},
		{"inherited plane", nil, with("SLURM_DISTRIBUTION=plane", "SLURM_DIST_PLANESIZE=2"), 2, true,
			[]string{"SLURM_DISTRIBUTION=plane", "SLURM_DIST_PLANESIZE=2"}},
		{"-m block keeps an inherited plane size", []string{"-m", "block"}, with("SLURM_DISTRIBUTION=plane", "SLURM_DIST_PLANESIZE=2"), 1, true,
			[]string{"SLURM_DISTRIBUTION=block", "SLURM_DIST_PLANESIZE=2"}},
		{"sbatch's SLURM_MEM_BIND rewritten", nil, with("SLURM_MEM_BIND=local", "SLURM_MEM_BIND_VERBOSE=quiet"), 1, true,
			join([]string{"SLURM_DISTRIBUTION=cyclic"}, memLocal)},
		{"--mem-bind over an inherited prefer,sort", []string{"--mem-bind=v,map_mem:0"},
			with("SLURM_MEM_BIND=verbose,prefer,sort,mask_mem:3", "SLURM_MEM_BIND_SORT=sort", "SLURM_MEM_BIND_VERBOSE=verbose"), 1, true,
			[]string{"SLURM_DISTRIBUTION=cyclic", "SLURM_MEM_BIND=verbose,prefer,map_mem:0", "SLURM_MEM_BIND_LIST=0",
				"SLURM_MEM_BIND_PREFER=prefer", "SLURM_MEM_BIND_SORT=sort", "SLURM_MEM_BIND_TYPE=map_mem:", "SLURM_MEM_BIND_VERBOSE=verbose"}},
		{"threads per core from the job", nil, with("SLURM_THREADS_PER_CORE=1", "SLURM_CPU_BIND_LIST=stale"), 1, true,
			join([]string{"SLURM_DISTRIBUTION=cyclic", "SLURM_THREADS_PER_CORE=1"}, threads)},
		{"srun's own --hint", []string{"--hint=compute_bound"}, with(), 1, true,
			join([]string{"SLURM_DISTRIBUTION=cyclic", "SLURM_THREADS_PER_CORE=1"}, cores)},
		{"the job's threads per core over srun's --hint", []string{"--hint=compute_bound"}, with("SLURM_THREADS_PER_CORE=1"), 1, true,
			join([]string{"SLURM_DISTRIBUTION=cyclic", "SLURM_THREADS_PER_CORE=1"}, threads)},
	} {
		if got := stepVars(t, tc.args, tc.env, tc.ntasks, 1, tc.inAlloc); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestCPUBindUnsupported(t *testing.T) {
	job := []string{"SLURM_JOB_ID=5", "SLURM_JOB_NODELIST=n1"}
	for _, tc := range []struct {
		args   []string
		env    []string
		plugin string
		want   bool
	}{
		{nil, append(job, "SLURM_THREADS_PER_CORE=1"), "task/none", true},
		{nil, append(job, "SLURM_THREADS_PER_CORE=1"), "task/affinity", false},
		{[]string{"--threads-per-core=1"}, job, "task/none", true},
		{[]string{"--hint=nomultithread"}, job, "task/none", false},
		{[]string{"--hint=nomultithread"}, append(job, "SLURM_THREADS_PER_CORE=1"), "task/none", true},
		{nil, job, "task/none", false},
	} {
		o, err := parseArgs(append(tc.args, "true"), tc.env)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got := cpuBindUnsupported(&o.spec.Site, hasVar(tc.env, "SLURM_THREADS_PER_CORE"), tc.plugin); got != tc.want {
			t.Errorf("%q %q %s: %v, want %v", tc.args, tc.env, tc.plugin, got, tc.want)
		}
	}
}
