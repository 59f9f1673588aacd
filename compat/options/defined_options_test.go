package options

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// definedCwd is the directory the reference ran the cases in; the goldens name it.
const definedCwd = "/tmp/orbit-defined"

// definedScripts are the batch scripts the sbatch cases name.
var definedScripts = map[string]string{
	"directives.sh": "#!/bin/bash\n#SBATCH -n 3\n#SBATCH --no-requeue\n#SBATCH --kill-on-invalid-dep=yes\n#SBATCH -v\n#SBATCH -o rel/out.txt\ntrue\n",
}

// parseFor parses a command line of cmd (without argv[0]) as the command does.
func parseFor(t *testing.T, cmd Cmds, env, args []string) *jobspec.JobSpec {
	t.Helper()
	argv := append([]string{cmdName(cmd)}, args...)
	var js *jobspec.JobSpec
	var err error
	switch cmd {
	case Sbatch:
		js, err = SbatchInput{Argv: argv, Env: env, Cwd: definedCwd, Now: time.Now(),
			Script: func(p string) ([]byte, error) { return []byte(definedScripts[p]), nil }}.Parse()
	case Srun:
		js, err = ParseSrun(argv, env, definedCwd, time.Now())
	default:
		js, _, err = ParseSallocOptions(argv, env, definedCwd, time.Now())
	}
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return js
}

// TestDefinedOptions_MatchesReference compares the -v list of defined options with what
// Slurm 22.05's commands printed for the same command lines and environments (recorded on
// the reference in definedCwd, the sbatch jobs held and cancelled).
func TestDefinedOptions_MatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cmd       Cmds
		env, args []string
		want      string
	}{
		{"sbatch_basic", Sbatch, nil, []string{"-v", "-n2", "-N1-2", "-c1", "-t1:00:00", "-J", "x", "--mem=1G", "-O", "-p", "debug", "-a", "1-3%2", "--wrap", "true", "--requeue", "--nice=10", "-H", "--mail-type=END", "--comment=hi", "--hint=nomultithread", "--ntasks-per-node=2", "--signal=B:USR1@30", "--open-mode=append", "-D", "/tmp"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: array               : 1-3%2
sbatch: chdir               : /tmp
sbatch: comment             : hi
sbatch: cpus-per-task       : 1
sbatch: hint                : nomultithread
sbatch: hold                : set
sbatch: job-name            : x
sbatch: mail-type           : END
sbatch: mem                 : 1G
sbatch: nice                : 10
sbatch: nodes               : 1-2
sbatch: ntasks              : 2
sbatch: ntasks-per-node     : 2
sbatch: open-mode           : a
sbatch: overcommit          : set
sbatch: partition           : debug
sbatch: requeue             : requeue
sbatch: signal              : B:USR1@30
sbatch: time                : 01:00:00
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_directives", Sbatch, nil, []string{"-v", "-H", "--requeue", "--kill-on-invalid-dep=no", "--mail-type=BEGIN", "directives.sh"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: hold                : set
sbatch: kill-on-invalid-dep : yes
sbatch: mail-type           : BEGIN
sbatch: no-requeue          : requeue
sbatch: ntasks              : 3
sbatch: output              : /tmp/orbit-defined/rel/out.txt
sbatch: requeue             : requeue
sbatch: verbose             : 1
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_env", Sbatch, []string{"SBATCH_DEBUG=2", "SBATCH_TIMELIMIT=5", "SBATCH_REQUEUE=0", "SBATCH_EXCLUSIVE=", "SBATCH_MEM_PER_CPU=100"}, []string{"-v", "-H", "--requeue", "--mem=2048", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: exclusive           : exclusive
sbatch: hold                : set
sbatch: mem                 : 2G
sbatch: requeue             : requeue
sbatch: time                : 00:05:00
sbatch: verbose             : 2
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_paths", Sbatch, nil, []string{"-v", "-H", "-D", "sub", "-o", "out%j.txt", "-e", "none", "-i", "in.txt", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: chdir               : /tmp/orbit-defined/sub
sbatch: error               : /dev/null
sbatch: hold                : set
sbatch: input               : /tmp/orbit-defined/sub/in.txt
sbatch: output              : /tmp/orbit-defined/sub/out%j.txt
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_nodes_clip", Sbatch, nil, []string{"-v", "-H", "-N", "3-5", "-n", "4", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: hold                : set
sbatch: nodes               : 3-4
sbatch: ntasks              : 4
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_nodes_fewer", Sbatch, nil, []string{"-v", "-H", "-w", "n1", "-N", "2", "-n", "1", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: hold                : set
sbatch: nodelist            : n1
sbatch: nodes               : 1
sbatch: ntasks              : 1
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_nodes_per_node", Sbatch, nil, []string{"-v", "-H", "-N", "2", "--tasks-per-node=2", "--mincpus=1", "-c", "3", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: cpus-per-task       : 3
sbatch: hold                : set
sbatch: mincpus             : 3
sbatch: nodes               : 2
sbatch: ntasks-per-node     : 2
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_units", Sbatch, nil, []string{"-v", "-H", "--mem=0", "--tmp=1T", "-t", "0", "--time-min=1-2:03:04", "--delay-boot=90", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: delay-boot          : 01:30:00
sbatch: hold                : set
sbatch: mem                 : 0?
sbatch: time                : UNLIMITED
sbatch: time-min            : 1-02:04:00
sbatch: tmp                 : 1T
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_flags", Sbatch, nil, []string{"-v", "-H", "--contiguous", "--reboot", "--spread-job", "--use-min-nodes", "--parsable", "--wait", "--test-only", "--ignore-pbs", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: contiguous          : set
sbatch: hold                : set
sbatch: ignore-pbs          : set
sbatch: parsable            : set
sbatch: reboot              : set
sbatch: spread-job          : set
sbatch: test-only           : set
sbatch: use-min-nodes       : set
sbatch: verbose             : 1
sbatch: wait                : set
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_sharing", Sbatch, nil, []string{"-v", "-H", "--exclusive", "--oversubscribe", "--no-kill=off", "--propagate", "--get-user-env=10L", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: exclusive           : oversubscribe
sbatch: get-user-env        : 10L
sbatch: hold                : set
sbatch: no-kill             : unset
sbatch: oversubscribe       : oversubscribe
sbatch: propagate           : ALL
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_signal_mail", Sbatch, nil, []string{"-v", "-H", "--signal=INT", "--signal=RB:HUP@120", "--mail-type=ALL", "--priority=TOP", "--nice", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: hold                : set
sbatch: mail-type           : INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT
sbatch: nice                : 100
sbatch: priority            : -3
sbatch: signal              : RB:HUP@120
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_shape", Sbatch, nil, []string{"-v", "-H", "-B", "2:4:1", "--ntasks-per-core=1", "--ntasks-per-socket=2", "-m", "plane=4", "--cpu-freq=1000-2000:performance", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: cpu-freq            : 1000-2000:Performance
sbatch: distribution        : plane=4
sbatch: extra-node-info     : 2:4:1
sbatch: hold                : set
sbatch: ntasks-per-core     : 1
sbatch: ntasks-per-socket   : 2
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_spec", Sbatch, nil, []string{"-v", "-H", "-S", "2", "--switches=2@1:00", "--gres=gpu:1,foo", "--gres-flags=Enforce-Binding", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: core-spec           : 2
sbatch: gres                : gres:gpu:1,gres:foo
sbatch: gres-flags          : enforce-binding
sbatch: hold                : set
sbatch: switches            : 2@00:01:00
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_hint_reset", Sbatch, []string{"SLURM_HINT=multithread"}, []string{"-v", "-H", "--hint=nomultithread", "--cores-per-socket=4", "--threads-per-core=2", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: cores-per-socket    : 4
sbatch: hold                : set
sbatch: threads-per-core    : 2
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_stored", Sbatch, nil, []string{"-v", "-H", "--mem-bind=v,map_mem:0,1", "--profile=all", "--power=level", "--network=net", "--mcs-label=m", "--bb=foo", "--container=/c", "--prefer=f", "--cluster-constraint=cc", "-m", "block:cyclic,pack", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: bb                  : foo
sbatch: cluster-constraint  : cc
sbatch: container           : /c
sbatch: distribution        : block:cyclic,pack
sbatch: hold                : set
sbatch: mcs-label           : m
sbatch: mem-bind            : verbose,map_mem:0,1
sbatch: network             : net
sbatch: power               : LEVEL
sbatch: prefer              : f
sbatch: profile             : Energy,Lustre,Network,Task
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_time_format", Sbatch, []string{"SLURM_TIME_FORMAT=%d/%m/%Y"}, []string{"-v", "-H", "--begin=2030-01-02T10:00:00", "--deadline=2031-03-04T05:06:07", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: begin               : 02/01/2030
sbatch: deadline            : 04/03/2031
sbatch: hold                : set
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"srun_basic", Srun, nil, []string{"-v", "--test-only", "-n2", "-N1-3", "-l", "-u", "-o", "o.txt", "-e", "none", "-J", "sj", "--mem=100", "--cpus-per-task=2", "true"},
			`srun: defined options
srun: -------------------- --------------------
srun: cpus-per-task       : 2
srun: error               : /dev/null
srun: job-name            : sj
srun: label               : set
srun: mem                 : 100
srun: nodes               : 1-2
srun: ntasks              : 2
srun: output              : o.txt
srun: test-only           : set
srun: unbuffered          : set
srun: verbose             : 1
srun: -------------------- --------------------
srun: end of defined options
`},
		{"srun_bind", Srun, nil, []string{"-v", "--test-only", "--cpu_bind=v,map_cpu:0*2,1", "--mpi=pmi2", "-K", "--exact", "-X", "--quit-on-interrupt", "true"},
			`srun: defined options
srun: -------------------- --------------------
srun: cpu-bind            : 0,0,1
srun: disable-status      : set
srun: exact               : set
srun: kill-on-bad-exit    : 1
srun: mpi                 : pmi2
srun: quit-on-interrupt   : set
srun: test-only           : set
srun: verbose             : 1
srun: -------------------- --------------------
srun: end of defined options
`},
		{"srun_clip", Srun, nil, []string{"-v", "--test-only", "-n", "2", "-N", "3", "--ntasks-per-node=1", "-W", "10", "-T", "4", "--msg-timeout=20", "true"},
			`srun: defined options
srun: -------------------- --------------------
srun: threads             : 4
srun: msg-timeout         : 20
srun: nodes               : 2
srun: ntasks              : 2
srun: ntasks-per-node     : 1
srun: test-only           : set
srun: verbose             : 1
srun: wait                : 10
srun: -------------------- --------------------
srun: end of defined options
`},
		{"srun_alloc", Srun, []string{"SLURM_JOB_ID=77", "SLURM_JOB_NODELIST=n1", "SLURM_JOB_NUM_NODES=1", "SLURM_NTASKS=2", "SLURM_NTASKS_PER_NODE=2", "SLURM_MEM_PER_NODE=100"}, []string{"-v", "--test-only", "-n1", "true"},
			`srun: defined options
srun: -------------------- --------------------
srun: (null)              : n1
srun: jobid               : 77
srun: mem                 : 100
srun: nodes               : 1
srun: ntasks              : 1
srun: test-only           : set
srun: verbose             : 1
srun: -------------------- --------------------
srun: end of defined options
`},
		{"srun_misc", Srun, nil, []string{"-v", "--test-only", "-I", "--overlap", "--pty", "--propagate=NPROC", "--export=ALL,FOO=1", "--whole", "-D", "/tmp", "--relative=0", "--task-prolog=/bin/true", "true"},
			`srun: defined options
srun: -------------------- --------------------
srun: chdir               : /tmp
srun: export              : ALL,FOO=1
srun: immediate           : 1
srun: overlap             : set
srun: propagate           : NPROC
srun: pty                 : set
srun: relative            : 0
srun: task-prolog         : /bin/true
srun: test-only           : set
srun: verbose             : 1
srun: whole               : set
srun: -------------------- --------------------
srun: end of defined options
`},
		{"salloc_bell", Salloc, nil, []string{"-v", "-n1", "--bell", "--no-bell", "-K", "--no-shell", "-H"},
			`salloc: defined options
salloc: -------------------- --------------------
salloc: bell                : bell-never
salloc: hold                : set
salloc: kill-command        : TERM
salloc: no-bell             : bell-never
salloc: no-shell            : set
salloc: ntasks              : 1
salloc: verbose             : 1
salloc: -------------------- --------------------
salloc: end of defined options
`},
		{"salloc_kill", Salloc, []string{"SALLOC_DEBUG=1", "SALLOC_KILL_CMD=HUP", "SALLOC_NO_BELL=1"}, []string{"-v", "-N1-3", "--ntasks-per-node=1", "--immediate=5", "--wait-all-nodes=0", "-H", "--no-shell"},
			`salloc: defined options
salloc: -------------------- --------------------
salloc: hold                : set
salloc: immediate           : 5
salloc: kill-command        : HUP
salloc: no-bell             : bell-never
salloc: no-shell            : set
salloc: nodes               : 1
salloc: ntasks-per-node     : 1
salloc: verbose             : 2
salloc: wait-all-nodes      : 0
salloc: -------------------- --------------------
salloc: end of defined options
`},
		{"sbatch_mem_per_cpu", Sbatch, []string{"SBATCH_MEM_PER_NODE=4G"}, []string{"-v", "-H", "--mem-per-cpu=1536", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: hold                : set
sbatch: mem-per-cpu         : 1536
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
		{"sbatch_thread_spec", Sbatch, []string{"SBATCH_CORE_SPEC=2"}, []string{"-v", "-H", "--thread-spec=1", "--wrap", "true"},
			`sbatch: defined options
sbatch: -------------------- --------------------
sbatch: core-spec           : unset
sbatch: hold                : set
sbatch: thread-spec         : 1
sbatch: verbose             : 1
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DefinedOptions(parseFor(t, tc.cmd, tc.env, tc.args)); got != tc.want {
				t.Errorf("got:\n%s\nreference:\n%s", got, tc.want)
			}
		})
	}
}

// TestDefinedOptions_NotPrinted: the commands list nothing without -v, when they stop for
// --help or --version, or (srun) without a command to run.
func TestDefinedOptions_NotPrinted(t *testing.T) {
	for _, tc := range []struct {
		cmd  Cmds
		args []string
	}{
		{Sbatch, []string{"-H", "--wrap", "true"}},
		{Sbatch, []string{"-v", "--help"}},
		{Salloc, []string{"-v", "-V"}},
		{Srun, []string{"-v", "--usage"}},
		{Srun, []string{"-v", "-n1"}},
		{Srun, []string{"-v", "--mpi=list"}},
		{Sbatch, []string{"-H", "directives.sh"}}, // #SBATCH -v is not read
	} {
		if got := DefinedOptions(parseFor(t, tc.cmd, nil, tc.args)); got != "" {
			t.Errorf("%v: got\n%s", tc.args, got)
		}
	}
}
