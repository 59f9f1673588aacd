package main

import (
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/jobspec"
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
	e := jobspec.NewEnvList()
	switch {
	case export == "":
		e.AddAll(env)
	case strings.EqualFold(export, "ALL"):
		e.AddAll(env)
		e.Set("SLURM_EXPORT_ENV", export)
	case strings.EqualFold(export, "NONE"):
		e.AddSlurm(env)
		e.Set("SLURM_EXPORT_ENV", export)
		e.Set("SLURM_GET_USER_ENV", "1")
	default:
		e.AddSlurm(env)
		all := false
		for _, item := range jobspec.ExportItems(export) {
			if strings.EqualFold(item, "ALL") {
				all = true
			}
		}
		for _, item := range jobspec.ExportItems(export) {
			if item == "" || strings.EqualFold(item, "ALL") || strings.EqualFold(item, "NONE") {
				continue
			}
			if name, val, ok := strings.Cut(item, "="); ok {
				e.Set(name, val)
			} else if v, ok := jobspec.Lookup(env, item); ok {
				e.Set(item, v)
			}
		}
		if all {
			e.AddAll(env) // the caller's values take precedence over the list's
		}
		e.Set("SLURM_EXPORT_ENV", export)
		e.Set("SLURM_GET_USER_ENV", "1")
	}
	if getUserEnv {
		e.Set("SLURM_GET_USER_ENV", "1")
	}
	e.AddAll(layout)
	e.Set("SLURM_PRIO_PROCESS", strconv.Itoa(prio))
	e.Set("SLURM_SUBMIT_DIR", submitDir)
	e.Set("SLURM_SUBMIT_HOST", host)
	return e.List()
}

// exportFileEnv is the job's environment with --export-file, as Slurm 22.05's sbatch builds
// it: sbatch clears its own environment before reading the file, so the file's definitions
// take its place, and only what sbatch sets afterwards remains of its own (SLURM_PRIO_PROCESS,
// and SLURM_SUBMIT_DIR unless the file defines it). --export then applies as in jobEnv, but
// NONE drops the file too and no SLURM_EXPORT_ENV survives the clearing. (sbatch's
// SLURM_JOB_NAME is cleared too in Slurm; Orbit's slurmstepd still sets the job's name.)
func exportFileEnv(file []string, export string, getUserEnv bool, layout []string, submitDir, host string, prio int) []string {
	own := []string{"SLURM_PRIO_PROCESS=" + strconv.Itoa(prio)}
	if _, ok := jobspec.Lookup(file, "SLURM_SUBMIT_DIR"); !ok {
		own = append(own, "SLURM_SUBMIT_DIR="+submitDir)
	}
	e := jobspec.NewEnvList()
	switch {
	case export == "" || strings.EqualFold(export, "ALL"):
		e.AddAll(file)
		e.AddAll(own)
	case strings.EqualFold(export, "NONE"):
		e.AddSlurm(own)
		e.Set("SLURM_GET_USER_ENV", "1")
	default: // the file, sbatch's own SLURM_* few, then the list's names and values
		e.AddAll(file)
		e.AddSlurm(own)
		all := false
		for _, item := range jobspec.ExportItems(export) {
			switch {
			case item == "" || strings.EqualFold(item, "NONE"):
			case strings.EqualFold(item, "ALL"):
				all = true
			default:
				if name, val, ok := strings.Cut(item, "="); ok {
					e.Set(name, val)
				} else if v, ok := jobspec.Lookup(own, item); ok {
					e.Set(item, v)
				}
			}
		}
		if all {
			e.AddAll(own)
		}
		e.Set("SLURM_GET_USER_ENV", "1")
	}
	if getUserEnv {
		e.Set("SLURM_GET_USER_ENV", "1")
	}
	e.AddAll(layout)
	e.Set("SLURM_SUBMIT_HOST", host)
	return e.List()
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
