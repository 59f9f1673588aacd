package options

import (
	"errors"
	"os"
	"path"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// ScriptSource returns the batch script named on the command line; path "" means standard
// input. It is called after the command line has been checked, as sbatch reads the script
// only then.
type ScriptSource func(path string) ([]byte, error)

// Sbatch is one sbatch invocation to parse.
type SbatchInput struct {
	Argv   []string     // as the command was invoked; Argv[0] is printed in getopt errors
	Env    []string     // "NAME=value"
	Cwd    string       // the submission directory (default WorkDir)
	Now    time.Time    // for --begin/--deadline
	Script ScriptSource // reads the script; nil reads the file (or os.Stdin)
}

// ParseSbatch parses an sbatch command line with its environment and the content of the
// script the command line names (script is used whatever path argv gives; it is ignored
// with --wrap). The returned error is an *Error with sbatch's exact stderr and exit status.
func ParseSbatch(argv []string, env []string, script []byte, now time.Time) (*jobspec.JobSpec, error) {
	cwd, _ := os.Getwd()
	return SbatchInput{Argv: argv, Env: env, Cwd: cwd, Now: now,
		Script: func(string) ([]byte, error) { return script, nil }}.Parse()
}

// Parse runs sbatch's option processing: a first pass over the command line (every value
// checked, help/version honoured), the script read and checked, then #SBATCH directives,
// the SBATCH_* environment and the command line again, each overriding the one before,
// and finally the checks sbatch and the controller make on the whole request.
func (in SbatchInput) Parse() (*jobspec.JobSpec, error) {
	js := jobspec.New(jobspec.Sbatch)
	js.Env = in.Env
	js.WorkDir, js.SubmitDir = in.Cwd, in.Cwd
	js.SubmitLine = strings.Join(in.Argv, " ")
	a := &applier{cmd: Sbatch, js: js, cwd: in.Cwd, now: in.Now, memBy: map[string]source{}}

	for _, arg := range in.Argv {
		if arg == ":" {
			return nil, cmdError(Sbatch, 1, "heterogeneous jobs (\":\" components) are not supported by Orbit yet")
		}
	}
	// First pass: the command line alone.
	found, optind, gerr := getoptLong(Sbatch, in.Argv)
	for _, occ := range found {
		if err := a.apply(occ.opt, occ.value, occ.hasVal, fromCLI); err != nil {
			return nil, err
		}
	}
	if gerr != nil {
		return nil, failure(Sbatch, gerr)
	}
	if js.Action != jobspec.ActionSubmit {
		return js, nil
	}
	scriptArgs := in.Argv[optind:]
	if js.Wrap != "" && len(scriptArgs) > 0 {
		return nil, cmdError(Sbatch, 1, "Script arguments not permitted with --wrap option")
	}
	cmdline := in.Argv[:optind]
	wrap := js.Wrap

	// The script.
	var body []byte
	file := "stdin"
	if wrap != "" {
		js.Script = WrapScript(wrap)
	} else {
		var p string
		if len(scriptArgs) > 0 {
			p = scriptArgs[0]
			file = path.Base(p)
			js.ScriptPath = p
		}
		read := in.Script
		if read == nil {
			read = readScriptFile
		}
		var err error
		body, err = read(p)
		if err != nil {
			return nil, cmdError(Sbatch, 1, "Unable to open file "+p)
		}
		if err := checkScript(body); err != nil {
			return nil, err
		}
		js.Script = body
		js.Argv = append([]string(nil), scriptArgs...)
	}

	// Second pass from defaults: #SBATCH, environment, command line.
	*js = *freshSbatch(js)
	a.memBy = map[string]source{}
	dargs, warnings, err := directiveArgs(body, file)
	if err != nil {
		return nil, err
	}
	js.Warnings = append(js.Warnings, warnings...)
	if len(dargs) > 0 {
		dfound, dind, err := getoptLong(Sbatch, append([]string{"sbatch"}, dargs...))
		for _, occ := range dfound {
			if occ.opt.Early { // Slurm reads -v, -Q, --wrap, --help ... on the command line only
				continue
			}
			if aerr := a.apply(occ.opt, occ.value, occ.hasVal, fromCLI); aerr != nil {
				return nil, aerr
			}
		}
		if err != nil {
			return nil, failure(Sbatch, err)
		}
		if dind <= len(dargs) {
			return nil, &Error{Stderr: "sbatch: error: Invalid directive found in batch script: " + dargs[dind-1] + "\n", ExitCode: 255}
		}
	}
	if !js.IgnorePBS && !envFlag(in.Env, "SBATCH_IGNORE_PBS") && !ignorePBSGiven(cmdline) {
		if err := a.applyWrapperDirectives(body, file); err != nil { // pbs.go
			return nil, err
		}
	}
	if err := a.applyEnv(SbatchEnv, in.Env); err != nil {
		return nil, err
	}
	found, _, _ = getoptLong(Sbatch, cmdline)
	for _, occ := range found {
		if occ.opt.Early { // the first pass counted -v and -Q; the environment may have reset -v
			continue
		}
		if err := a.apply(occ.opt, occ.value, occ.hasVal, fromCLI); err != nil {
			return nil, err
		}
	}
	if err := a.verifySbatch(scriptArgs); err != nil {
		return nil, err
	}
	return js, nil
}

// freshSbatch resets the option fields for the second pass, keeping what the first pass
// learned about the invocation itself.
func freshSbatch(old *jobspec.JobSpec) *jobspec.JobSpec {
	js := jobspec.New(jobspec.Sbatch)
	js.Env, js.WorkDir, js.SubmitDir, js.SubmitLine = old.Env, old.WorkDir, old.SubmitDir, old.SubmitLine
	js.Script, js.ScriptPath, js.Argv, js.Wrap = old.Script, old.ScriptPath, old.Argv, old.Wrap
	js.Verbose, js.Quiet = old.Verbose, old.Quiet
	js.Warnings = old.Warnings
	js.Defined = old.Defined // Slurm keeps the first pass's option state
	return js
}

func readScriptFile(p string) ([]byte, error) {
	if p == "" {
		return readAll(os.Stdin)
	}
	return os.ReadFile(p)
}

func failure(cmd Cmds, err error) error {
	var ue *usageError
	if errors.As(err, &ue) {
		return usageFailure(cmd, ue)
	}
	return err
}

// getenv returns the first NAME=value of env, as getenv(3) does.
func getenv(env []string, name string) (string, bool) {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// applyEnv sets options from the input environment in the command's table order. Values
// of flags follow Slurm's rule: empty, "yes" or a non-zero number set the flag, anything
// else clears it; an empty value of an optional-argument option means no value.
func (a *applier) applyEnv(table []EnvVar, env []string) error {
	for _, e := range table {
		val, ok := getenv(env, e.Var)
		if !ok {
			continue
		}
		o := Lookup(a.cmd, e.ID)
		if o == nil {
			continue
		}
		if !o.Implemented {
			return cmdError(a.cmd, 1, e.Var+" ("+displayName(o)+") is not supported by Orbit yet")
		}
		hasVal := true
		switch o.Arg {
		case ArgNone:
			n, rest, digits := strtol(val)
			if !(val == "" || strings.EqualFold(val, "yes") || (digits && rest == "" && n != 0)) {
				a.reset(o)
				continue
			}
			if o.ID != "verbose" { // Slurm passes the value on; only -v's setter reads it
				val, hasVal = "", false
			}
		case ArgOptional:
			hasVal = val != ""
		}
		if err := a.apply(o, val, hasVal, fromEnv); err != nil {
			return err
		}
	}
	return nil
}

// ignorePBSGiven says whether the command line has --ignore-pbs, which sbatch's first pass
// sets before the script's directives are translated.
func ignorePBSGiven(cmdline []string) bool {
	found, _, _ := getoptLong(Sbatch, cmdline)
	for _, occ := range found {
		if occ.opt.ID == "ignore-pbs" {
			return true
		}
	}
	return false
}

// envFlag is a flag variable of env as Slurm reads one: set, and empty, "yes" or a
// non-zero number.
func envFlag(env []string, name string) bool {
	val, ok := getenv(env, name)
	if !ok {
		return false
	}
	n, rest, digits := strtol(val)
	return val == "" || strings.EqualFold(val, "yes") || (digits && rest == "" && n != 0)
}

// reset undoes a flag, as a false-valued environment variable does in Slurm.
func (a *applier) reset(o *Option) {
	a.js.Undefine(o.ID)
	switch o.ID {
	case "hold":
		a.js.Hold = false
	case "requeue", "no-requeue":
		a.js.Requeue = -1
	case "parsable":
		a.js.Parsable = false
	case "ignore-pbs":
		a.js.IgnorePBS = false
	case "verbose":
		a.js.Verbose = 0
	case "quiet":
		a.js.Quiet = false
	}
}
