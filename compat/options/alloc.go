package options

import (
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// ParseSrun parses an srun command line: options (SLURM_*/SRUN_* environment first, the
// command line overriding), then the command to run and its arguments in Argv.
func ParseSrun(argv []string, env []string, cwd string, now time.Time) (*jobspec.JobSpec, error) {
	return parseAlloc(Srun, jobspec.Srun, SrunEnv, argv, env, cwd, now)
}

// ParseSalloc parses a salloc command line; Argv holds the command to run in the
// allocation (empty: the configured shell).
func ParseSalloc(argv []string, env []string, cwd string, now time.Time) (*jobspec.JobSpec, error) {
	js, _, err := ParseSallocOptions(argv, env, cwd, now)
	return js, err
}

// ParseSallocOptions is ParseSalloc that also returns salloc's own options (-I, --no-shell,
// --bell), which have no place in a job spec.
func ParseSallocOptions(argv []string, env []string, cwd string, now time.Time) (*jobspec.JobSpec, *SallocOptions, error) {
	so := &SallocOptions{}
	js, err := parseAlloc(Salloc, jobspec.Salloc, SallocEnv, argv, env, cwd, now, so)
	if err != nil {
		return nil, nil, err
	}
	return js, so, nil
}

func parseAlloc(cmd Cmds, c jobspec.Command, envTable []EnvVar, argv, env []string, cwd string, now time.Time, so ...*SallocOptions) (*jobspec.JobSpec, error) {
	js := jobspec.New(c)
	js.Env, js.WorkDir, js.SubmitDir, js.SubmitLine = env, cwd, cwd, strings.Join(argv, " ")
	a := &applier{cmd: cmd, js: js, cwd: cwd, now: now, memBy: map[string]source{}}
	if len(so) > 0 {
		a.sa = so[0]
	}
	for _, arg := range argv {
		if arg == ":" {
			return nil, cmdError(cmd, 1, "heterogeneous jobs (\":\" components) are not supported by Orbit yet")
		}
	}
	found, optind, gerr := getoptLong(cmd, argv)
	if err := a.applyEnv(envTable, env); err != nil {
		return nil, err
	}
	for _, occ := range found {
		if err := a.apply(occ.opt, occ.value, occ.hasVal, fromCLI); err != nil {
			return nil, err
		}
	}
	if gerr != nil {
		return nil, failure(cmd, gerr)
	}
	js.Argv = append([]string(nil), argv[optind:]...)
	if err := a.resolveHostfiles(); err != nil { // hostfile.go
		return nil, err
	}
	a.checkNodeListCount()
	if err := a.memoryExclusive(); err != nil {
		return nil, err
	}
	if err := a.verifyHint(); err != nil {
		return nil, err
	}
	if err := a.verifyCoreSpec(); err != nil {
		return nil, err
	}
	if err := a.verifyBurstBuffer(); err != nil { // stored.go
		return nil, err
	}
	a.settleNodesAndTasks() // salloc's (siteopts.go)
	if js.DebuggerTest {
		// A parallel debug launch sets --threads and --msg-timeout to 1, as Slurm's srun.
		js.Define(jobspec.DefinedOption{ID: "threads", Value: "1", HasVal: true})
		js.Define(jobspec.DefinedOption{ID: "msg-timeout", Value: "1", HasVal: true})
	}
	if cmd == Srun && js.Exact && js.Whole {
		return nil, cmdError(cmd, 1, "--exact and --whole are mutually exclusive.")
	}
	if js.Name == "" && len(js.Argv) > 0 && cmd == Srun {
		js.Name = js.Argv[0]
		if i := strings.LastIndexByte(js.Name, '/'); i >= 0 {
			js.Name = js.Name[i+1:]
		}
	}
	if err := js.Validate(); err != nil {
		if je, ok := err.(*jobspec.Error); ok {
			return nil, specError(cmd, je)
		}
		return nil, err
	}
	return js, nil
}
