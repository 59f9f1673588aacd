package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/loglevel"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/srun/multiprog"
)

// options are srun's parsed command line (the subset Orbit supports so far).
type options struct {
	ntasks, nodes, cpusPerTask, tasksPerNode uint32 // 0 = not given
	// memPerNode and memPerCPU (MiB; jobspec.NoVal64 = not given) ask for memory when srun
	// allocates. Inside an allocation the step runs within the job's memory (sbatch --mem
	// exports SLURM_MEM_PER_NODE, which every srun of the job reads back as --mem).
	memPerNode, memPerCPU               uint64
	nodesSet, ntasksSet                 bool
	label                               bool
	output, errorf, input               string // -o, -e, -i as given ("" = not given)
	killBadExit                         int    // -K: 1 on, 0 off, -1 not given (slurm.conf decides)
	multiProg                           bool
	multiProgData                       string // --multi-prog: the configuration file's text
	bcastSrc                            string // --bcast: the program's path, found on PATH (bcast.go)
	openMode                            jobspec.OpenMode
	jobName, partition, nodelist, chdir string
	timeLimit                           uint32 // minutes; 0 = not given
	quiet                               int
	help, usage, version                bool
	argv                                []string
	spec                                *jobspec.JobSpec
	cpuBind                             *compatopts.CPUBind // --cpu-bind, verified (bind.go)
	mpi                                 string              // the step's MPI type: --mpi, else MpiDefault (mpi.go)
}

// parseArgs parses srun's command line (args without argv[0]) with the option table every
// Slurm command shares (compat/options): options stop at the command, the SLURM_*/SRUN_*
// environment comes first (inside an allocation SLURM_NTASKS, SLURM_JOB_NUM_NODES,
// SLURM_NTASKS_PER_NODE, SLURM_LABELIO; not SLURM_CPUS_PER_TASK, which 22.05's srun no longer
// inherits), and an option Orbit does not implement is refused by name. The
// error is an *options.Error holding srun's exact stderr and exit code.
func parseArgs(args []string, env []string) (*options, error) {
	cwd, _ := os.Getwd()
	js, err := compatopts.ParseSrun(append([]string{argv0()}, args...), env, cwd, time.Now())
	if err != nil {
		return nil, err
	}
	if err := refuseUnhonoured(js); err != nil {
		return nil, err
	}
	set := func(v uint32) uint32 {
		if v == jobspec.NoVal {
			return 0
		}
		return v
	}
	o := &options{
		ntasks: set(js.NTasks), ntasksSet: js.NTasks != jobspec.NoVal,
		nodes: set(js.MinNodes), nodesSet: js.NodesSet,
		cpusPerTask: set(js.CPUsPerTask), tasksPerNode: set(js.NTasksPerNode),
		memPerNode: js.MemPerNode, memPerCPU: js.MemPerCPU,
		label: js.Label, jobName: js.Name, partition: js.Partition, nodelist: js.NodeList,
		timeLimit: set(js.TimeLimit), help: js.Action == jobspec.ActionHelp,
		usage: js.Action == jobspec.ActionUsage, version: js.Action == jobspec.ActionVersion,
		argv: js.Argv, spec: js,
		output: js.Output, errorf: js.Error, input: js.Input, multiProg: js.MultiProg, killBadExit: -1,
		openMode: js.OpenMode,
	}
	if js.KillOnBadExitSet {
		o.killBadExit = 0
		if js.KillOnBadExit != 0 {
			o.killBadExit = 1
		}
	}
	if js.Quiet {
		o.quiet = 1
	}
	if js.WorkDir != cwd {
		o.chdir = js.WorkDir
	}
	return o, nil
}

// refuseUnhonoured refuses options the shared table implements for sbatch but Orbit's srun
// does not honour yet, so none is silently ignored. Inside an allocation Slurm's srun
// ignores the job-level options a step request does not carry (--dependency, --deadline,
// --hold, --mincpus, --exclusive=user, --licenses; --begin with a line, stepInAllocation),
// and so does Orbit's.
func refuseUnhonoured(js *jobspec.JobSpec) error {
	if js.Exclusive == jobspec.SharedMCS {
		return &compatopts.Error{Stderr: "srun: error: --exclusive=mcs is not supported by Orbit's srun yet\n", ExitCode: 1}
	}
	return refuseSiteOptions(js)
}

// refuseSiteOptions refuses the site options (compat/jobspec SiteOptions) where Orbit's srun
// would place the step differently from Slurm's. Outside an allocation --hint,
// --ntasks-per-core and --threads-per-core go to the controller with the job, which gives
// whole cores on nodes with several threads per core (plugins/sched/selection cores.go).
// Inside one they and a single-node --distribution change nothing without task binding,
// except a --threads-per-core other than 1, which Slurm applies to the step's cores. Over
// several nodes, block, cyclic, plane and arbitrary deal the tasks' ranks to the nodes
// (task_dist.go). --cpu-freq, --profile, --acctg-freq, --mem-bind and
// --delay-boot only travel in the environment. --spread-job, --use-min-nodes, --switches and
// -S are judged against slurm.conf once it is read (cmdclient.PlacementRefusal).
func refuseSiteOptions(js *jobspec.JobSpec) error {
	s := &js.Site
	inAlloc := js.JobID != ""
	for _, c := range []struct {
		given bool
		name  string
	}{
		{s.ThreadsPerCore != jobspec.NoVal && s.ThreadsPerCore != 1 && inAlloc, "--threads-per-core inside an allocation"},
		{s.CoresPerSocket != jobspec.NoVal && s.CoresPerSocket != 1, "--cores-per-socket or -B cores other than 1"},
		{s.SocketsPerNode != jobspec.NoVal && s.SocketsPerNode != 1, "--sockets-per-node or -B sockets other than 1"},
		{s.TmpDiskMB != jobspec.NoVal64 && s.TmpDiskMB > 0 && inAlloc, "--tmp inside an allocation"},
	} {
		if c.given {
			return &compatopts.Error{Stderr: "srun: error: " + c.name + " is not supported by Orbit's srun yet\n", ExitCode: 1}
		}
	}
	return nil
}

// loadMultiProg reads and checks the --multi-prog configuration (argv[0]) as srun does before
// anything else, and sets the task count from it when -n was not given.
func loadMultiProg(o *options, stderr io.Writer) int {
	name := o.argv[0]
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "srun: error: Could not open multi_prog config file %s\n", name)
		return 1
	}
	ntasks := int(max(o.ntasks, 1))
	n, err := multiprog.Verify(string(data), name, ntasks, o.ntasksSet)
	if err != nil {
		for _, l := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "srun: error: %s\n", l)
		}
		return 1
	}
	if n != ntasks {
		o.ntasks, o.ntasksSet = uint32(n), true
	}
	o.multiProgData = string(data)
	return 0
}

// checkRelative checks -r/--relative as Slurm's srun does: not with -w or -x, only inside
// an allocation, and with room for the step's nodes after the first one it skips. It returns
// srun's exit code when srun must stop, else -1.
func checkRelative(js *jobspec.JobSpec, inAlloc bool, stderr io.Writer) int {
	if js == nil || js.Relative == jobspec.NoVal {
		return -1
	}
	if js.NodeList != "" || js.Exclude != "" {
		fmt.Fprintln(stderr, "srun: error: -r,--relative not allowed with -w,--nodelist or -x,--exclude.")
		return 1
	}
	if !inAlloc {
		fmt.Fprintln(stderr, "srun: fatal: --relative option invalid for job allocation request")
		return 1
	}
	allocated, err := strconv.ParseUint(os.Getenv("SLURM_JOB_NUM_NODES"), 10, 32)
	if err != nil {
		return -1 // the controller judges the step against the allocation
	}
	nodes := uint64(1)
	if js.NodesSet && js.MinNodes != jobspec.NoVal {
		nodes = uint64(js.MinNodes)
	}
	if uint64(js.Relative)+nodes > allocated {
		by := "--nodes"
		if !js.NodesByCLI {
			by = "SLURM_JOB_NUM_NODES"
		}
		fmt.Fprintf(stderr, "srun: error: --relative and %s option incompatible with count of allocated nodes (%d+%d>%d)\n",
			by, js.Relative, nodes, allocated)
		return 1
	}
	return -1
}

// argv0 is the name srun was invoked by, which getopt's messages name ("/usr/bin/srun:
// unrecognized option"); "srun" when there is none.
func argv0() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return os.Args[0]
	}
	return "srun"
}

// settleCounts is Slurm's srun check of a node count and a task count both given (on the
// command line, by the allocation's environment or, for the nodes, by --nodelist's count;
// opt.c's _opt_verify): fewer tasks than
// nodes lowers the node count to the tasks, with a warning, before the allocation is asked
// for; an --ntasks-per-node that does not divide the tasks over the nodes is dropped, with a
// warning when the tasks exceed it.
func settleCounts(o *options, stderr io.Writer) {
	if js := o.spec; js != nil && js.NodeList != "" && js.TaskNodes == nil {
		// A --nodelist asks for at least its nodes (each once).
		hl := hostlist.FromNames(mustExpand(js.NodeList))
		hl.Uniq()
		if n := uint32(hl.Count()); !o.nodesSet || n > o.nodes {
			o.nodes, js.MinNodes = n, n
		}
		o.nodesSet, js.NodesSet = true, true
	}
	if o.nodesSet && o.ntasksSet {
		settleBoth(o, stderr)
	}
	if o.tasksPerNode > 0 && !o.ntasksSet {
		// --ntasks-per-node without -n: that many tasks on each node of the minimum.
		o.ntasks, o.ntasksSet = max(o.nodes, 1)*o.tasksPerNode, true
		if o.spec != nil {
			o.spec.NTasks = o.ntasks
		}
	}
}

// settleBoth is settleCounts for a node count and a task count both given.
func settleBoth(o *options, stderr io.Writer) {
	js := o.spec
	if js != nil && js.MaxNodes != 0 && o.ntasks < js.MaxNodes {
		js.MaxNodes = o.ntasks
	}
	if o.ntasks > 0 && o.ntasks < o.nodes {
		fmt.Fprintf(stderr, "srun: Warning: can't run %d processes on %d nodes, setting nnodes to %d\n", o.ntasks, o.nodes, o.ntasks)
		o.nodes = o.ntasks
		if js != nil {
			js.MinNodes, js.MaxNodes = o.ntasks, o.ntasks
			// Slurm's srun sets -N again (min and max), so -v lists it.
			js.Define(jobspec.DefinedOption{ID: "nodes", Value: strconv.Itoa(int(o.ntasks)), HasVal: true})
			trimNodeList(o, js)
		}
	}
	if o.tasksPerNode > 0 && o.nodes > 0 && o.tasksPerNode != o.ntasks/o.nodes {
		if o.ntasks > o.tasksPerNode {
			fmt.Fprintf(stderr, "srun: Warning: can't honor --ntasks-per-node set to %d which doesn't match the requested tasks %d with the number of requested nodes %d. Ignoring --ntasks-per-node.\n",
				o.tasksPerNode, o.ntasks, o.nodes)
		}
		o.tasksPerNode = 0
		if js != nil {
			js.NTasksPerNode = jobspec.NoVal
		}
	}
}

// trimNodeList is the rest of that warning in Slurm: a --nodelist naming more nodes than
// there are tasks keeps its first ones (in sorted order, each once); under an arbitrary
// distribution those are then the tasks' nodes, one task each.
func trimNodeList(o *options, js *jobspec.JobSpec) {
	hl := hostlist.FromNames(mustExpand(js.NodeList))
	hl.Uniq()
	names := hl.Hosts()
	if uint32(len(names)) <= o.ntasks {
		return
	}
	names = names[:o.ntasks]
	js.NodeList = hostlist.Compress(names)
	o.nodelist = js.NodeList
	if js.TaskNodes != nil {
		js.TaskNodes = names
	}
}

// mustExpand is expr's names, none when it does not parse (the controller refuses it).
func mustExpand(expr string) []string {
	names, _ := hostlist.Expand(expr)
	return names
}

// capSlurmdDebug keeps --slurmd-debug at most debug2 above error (an increment of 4), with
// Slurm's note, as _opt_verify does: debug3 is the I/O's own level, whose lines would feed
// themselves back to srun. A name Slurm does not know is NO_VAL16, capped as well.
func capSlurmdDebug(o *options, stderr io.Writer) {
	if o.spec == nil {
		return
	}
	if most := loglevel.Debug2 - loglevel.Error; o.spec.SlurmdDebug > most {
		o.spec.SlurmdDebug = most
		fmt.Fprintf(stderr, "srun: Using srun's max debug increment of %d\n", most)
	}
}
