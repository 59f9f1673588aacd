package main

import (
	"strconv"
	"strings"
	"syscall"
)

// jobEnv builds the environment the job receives, as sbatch does for --export:
//
//   - unset: sbatch's whole environment;
//   - ALL: the same, and SLURM_EXPORT_ENV=ALL;
//   - NONE: only the SLURM_* variables, SLURM_EXPORT_ENV=NONE and SLURM_GET_USER_ENV=1 (the
//     node then loads the user's login environment);
//   - a list "[ALL,]NAME[=value],...": the SLURM_* variables, each NAME with its current value
//     or the value given (the whole environment too when ALL is listed, whose values then win
//     over the list's), SLURM_EXPORT_ENV=<the list> and SLURM_GET_USER_ENV=1.
//
// --get-user-env (getUserEnv) adds SLURM_GET_USER_ENV=1 in the first two cases too. In every
// case the job's own request (layout, "NAME=value" from layoutEnv) is set over the result,
// and sbatch adds SLURM_PRIO_PROCESS, SLURM_SUBMIT_DIR and SLURM_SUBMIT_HOST.
func jobEnv(env []string, export string, getUserEnv bool, layout []string, submitDir, host string, prio int) []string {
	e := newEnvList()
	switch {
	case export == "":
		e.addAll(env)
	case strings.EqualFold(export, "ALL"):
		e.addAll(env)
		e.set("SLURM_EXPORT_ENV", export)
	case strings.EqualFold(export, "NONE"):
		e.addSlurm(env)
		e.set("SLURM_EXPORT_ENV", export)
		e.set("SLURM_GET_USER_ENV", "1")
	default:
		e.addSlurm(env)
		all := false
		for _, item := range strings.Split(export, ",") {
			if strings.EqualFold(item, "ALL") {
				all = true
			}
		}
		for _, item := range strings.Split(export, ",") {
			if item == "" || strings.EqualFold(item, "ALL") || strings.EqualFold(item, "NONE") {
				continue
			}
			if name, val, ok := strings.Cut(item, "="); ok {
				e.set(name, val)
			} else if v, ok := lookup(env, item); ok {
				e.set(item, v)
			}
		}
		if all {
			e.addAll(env) // the caller's values take precedence over the list's
		}
		e.set("SLURM_EXPORT_ENV", export)
		e.set("SLURM_GET_USER_ENV", "1")
	}
	if getUserEnv {
		e.set("SLURM_GET_USER_ENV", "1")
	}
	e.addAll(layout)
	e.set("SLURM_PRIO_PROCESS", strconv.Itoa(prio))
	e.set("SLURM_SUBMIT_DIR", submitDir)
	e.set("SLURM_SUBMIT_HOST", host)
	return e.list()
}

// exportFileEnv is the job's environment with --export-file, as Slurm 22.05's sbatch builds
// it: sbatch clears its own environment before reading the file, so the file's definitions
// take its place, and only what sbatch sets afterwards remains of its own (SLURM_PRIO_PROCESS,
// and SLURM_SUBMIT_DIR unless the file defines it). --export then applies as in jobEnv, but
// NONE drops the file too and no SLURM_EXPORT_ENV survives the clearing. (sbatch's
// SLURM_JOB_NAME is cleared too in Slurm; Orbit's slurmstepd still sets the job's name.)
func exportFileEnv(file []string, export string, getUserEnv bool, layout []string, submitDir, host string, prio int) []string {
	own := []string{"SLURM_PRIO_PROCESS=" + strconv.Itoa(prio)}
	if _, ok := lookup(file, "SLURM_SUBMIT_DIR"); !ok {
		own = append(own, "SLURM_SUBMIT_DIR="+submitDir)
	}
	e := newEnvList()
	switch {
	case export == "" || strings.EqualFold(export, "ALL"):
		e.addAll(file)
		e.addAll(own)
	case strings.EqualFold(export, "NONE"):
		e.addSlurm(own)
		e.set("SLURM_GET_USER_ENV", "1")
	default: // the file, sbatch's own SLURM_* few, then the list's names and values
		e.addAll(file)
		e.addSlurm(own)
		all := false
		for _, item := range strings.Split(export, ",") {
			switch {
			case item == "" || strings.EqualFold(item, "NONE"):
			case strings.EqualFold(item, "ALL"):
				all = true
			default:
				if name, val, ok := strings.Cut(item, "="); ok {
					e.set(name, val)
				} else if v, ok := lookup(own, item); ok {
					e.set(item, v)
				}
			}
		}
		if all {
			e.addAll(own)
		}
		e.set("SLURM_GET_USER_ENV", "1")
	}
	if getUserEnv {
		e.set("SLURM_GET_USER_ENV", "1")
	}
	e.addAll(layout)
	e.set("SLURM_SUBMIT_HOST", host)
	return e.list()
}

// envList is an ordered environment where a later set replaces an earlier value in place.
type envList struct {
	names []string
	vals  map[string]string
}

func newEnvList() *envList { return &envList{vals: map[string]string{}} }

func (e *envList) set(name, val string) {
	if _, ok := e.vals[name]; !ok {
		e.names = append(e.names, name)
	}
	e.vals[name] = val
}

func (e *envList) addAll(env []string) {
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && name != "" {
			e.set(name, val)
		}
	}
}

func (e *envList) addSlurm(env []string) {
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, "SLURM_") {
			e.set(name, val)
		}
	}
}

func (e *envList) list() []string {
	out := make([]string, 0, len(e.names))
	for _, n := range e.names {
		out = append(out, n+"="+e.vals[n])
	}
	return out
}

// lookup returns the value of name in env (the last one wins, as getenv sees it).
func lookup(env []string, name string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if n, v, ok := strings.Cut(kv, "="); ok && n == name {
			val, found = v, true
		}
	}
	return val, found
}

// prioProcess is the scheduling priority (nice value) of process pid, which sbatch passes
// as SLURM_PRIO_PROCESS so the job's tasks run at the same one.
func prioProcess(pid int) int {
	// getpriority(2) returns 20-nice on Linux.
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, pid)
	if err != nil {
		return 0
	}
	return 20 - p
}
