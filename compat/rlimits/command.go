package rlimits

import "strings"

// Command is what sbatch and srun do before they submit (Slurm's _set_rlimit_env): the
// SLURM_RLIMIT_<NAME> variables to set in the environment they send, for the limits conf
// (slurm.conf's set) propagates, or those --propagate names when it was given (then as the
// user's). A bad --propagate list is the command's two error lines and ok false (exit 1,
// nothing submitted); a limit that cannot be read is an error line and the rest still go.
// The lines are prefixed with prog ("sbatch: error: ...") and end in newlines.
func Command(prog, propagate string, given bool, conf Set, get Getter) (env []string, stderr string, ok bool) {
	var b strings.Builder
	set := conf
	if given {
		s, err := Parse(propagate, true)
		if err != nil {
			b.WriteString(prog + ": error: " + err.Error() + "\n")
			b.WriteString(prog + ": error: --propagate=" + propagate + " is not valid.\n")
			return nil, b.String(), false
		}
		set = s
	}
	env, errs := Env(set, given, get)
	for _, err := range errs {
		b.WriteString(prog + ": error: " + err.Error() + "\n")
	}
	return env, b.String(), true
}

// SetEnv returns env with each NAME=value of vars set: replacing the first entry of that
// name in place (and dropping later duplicates), or appended.
func SetEnv(env, vars []string) []string {
	out := env
	for _, kv := range vars {
		name := kv[:strings.IndexByte(kv, '=')+1]
		done := false
		keep := out[:0:0]
		for _, e := range out {
			if strings.HasPrefix(e, name) {
				if done {
					continue
				}
				e, done = kv, true
			}
			keep = append(keep, e)
		}
		if !done {
			keep = append(keep, kv)
		}
		out = keep
	}
	return out
}
