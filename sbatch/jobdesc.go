package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// jobDesc flattens a parsed sbatch JobSpec into the submission message. env is sbatch's own
// environment, from which the job's is built according to --export; fileEnv is
// --export-file's (nil without one), which replaces it.
func jobDesc(js *jobspec.JobSpec, env, fileEnv []string, host string, pid int) *wire.JobDesc {
	d := &wire.JobDesc{
		Name:        js.Name,
		Partition:   js.Partition,
		Account:     js.Account,
		QOS:         js.QOS,
		Reservation: js.Reservation,
		WCKey:       js.WCKey,
		Comment:     js.Comment,
		Constraint:  js.Constraint, BatchFeatures: js.BatchFeatures,
		Licenses:      js.Licenses,
		Gres:          js.Gres,
		MailType:      js.MailType,
		MailUser:      js.MailUser,
		ReqNodes:      js.NodeList,
		ExcNodes:      js.Exclude,
		MinNodes:      js.MinNodes,
		MaxNodes:      js.MaxNodes,
		NumTasks:      js.NTasks,
		NTasksPerNode: js.NTasksPerNode,
		CPUsPerTask:   js.CPUsPerTask,
		MemPerNode:    js.MemPerNode,
		MemPerCPU:     js.MemPerCPU,
		TimeLimit:     js.TimeLimit,
		TimeMin:       js.TimeMin,
		Hold:          js.Hold,
		NoKill:        js.NoKill,
		MinCPUs:       minCPUs(js),
		Shared:        int32(js.Exclusive),
		Requeue:       int32(js.Requeue),
		Nice:          js.Nice,
		Priority:      js.Priority,
		KillInvalid:   int32(js.KillInvalidDep),
		OpenMode:      int32(js.OpenMode),
		StdOut:        js.Output,
		StdErr:        js.Error,
		StdIn:         js.Input,
		WorkDir:       js.WorkDir,
		SubmitDir:     js.SubmitDir,
		Dependency:    js.Dependency,
		ArraySpec:     js.ArraySpec,
		Script:        string(js.Script),
		ScriptArgs:    scriptArgs(js),
		SubmitLine:    js.SubmitLine,
		SubmitHost:    host,
		AllocSID:      cmdclient.SessionID(),

		MinNodesInvasive: js.MinNodesInvasive,
		MaxNodesInvasive: js.MaxNodesInvasive,
		NodeConstraints:  js.NodeConstraints,
		MinPower:         js.MinPower,
		MaxPower:         js.MaxPower,
	}
	siteDesc(d, js) // siteopts_env.go
	cmdclient.StoredDesc(d, js)
	if !js.Begin.IsZero() {
		d.BeginTime = js.Begin.Unix()
	}
	if !js.Deadline.IsZero() {
		d.Deadline = js.Deadline.Unix()
	}
	cmdclient.SignalDesc(d, js)
	if js.ScriptPath != "" {
		// Slurm records the script as an absolute path (scontrol's Command=).
		p := js.ScriptPath
		if !filepath.IsAbs(p) {
			p = filepath.Join(js.SubmitDir, p)
		}
		d.Command = filepath.Clean(p)
	}
	d.UserID, d.UserIDSet, d.GroupID, d.GroupIDSet = js.UID, js.UIDSet, js.GID, js.GIDSet // --uid, --gid
	if fileEnv != nil {
		d.Environment = exportFileEnv(fileEnv, js.Export, js.GetUserEnv, layoutEnv(js), js.SubmitDir, host, prioProcess(pid))
		return d
	}
	env = setOwnEnv(env, siteOwnEnv(js)) // siteopts_env.go
	d.Environment = jobEnv(env, js.Export, js.GetUserEnv, layoutEnv(js), js.SubmitDir, host, prioProcess(pid))
	return d
}

// scriptArgs are the arguments the script is run with ($1...): js.Argv names the script
// file first, as Slurm's argv does, and slurmstepd supplies the script's own argv[0].
func scriptArgs(js *jobspec.JobSpec) []string {
	if len(js.Argv) <= 1 {
		return nil
	}
	return append([]string(nil), js.Argv[1:]...)
}

// layoutEnv is what sbatch's set_envs adds to the job's environment after --export is
// applied, so a job sees its own request even with --export=NONE: SLURM_CPUS_PER_TASK for
// -c, SLURM_NTASKS and SLURM_NPROCS for -n, SLURM_NTASKS_PER_NODE for --ntasks-per-node,
// SLURM_OPEN_MODE for --open-mode, SLURM_JOB_DEPENDENCY for --dependency as given (the other
// variables of set_envs belong to options Orbit refuses). Only options given
// count: a task count the controller derives reaches the job from the node, not from here.
func layoutEnv(js *jobspec.JobSpec) []string {
	var env []string
	u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	if js.CPUsPerTask != jobspec.NoVal {
		env = append(env, "SLURM_CPUS_PER_TASK="+u(js.CPUsPerTask))
	}
	if js.NTasks != jobspec.NoVal && js.NTasks > 0 {
		env = append(env, "SLURM_NPROCS="+u(js.NTasks), "SLURM_NTASKS="+u(js.NTasks))
	}
	if js.NTasksPerNode != jobspec.NoVal {
		env = append(env, "SLURM_NTASKS_PER_NODE="+u(js.NTasksPerNode))
	}
	switch js.OpenMode {
	case jobspec.OpenModeAppend:
		env = append(env, "SLURM_OPEN_MODE=a")
	case jobspec.OpenModeTruncate:
		env = append(env, "SLURM_OPEN_MODE=t")
	}
	if js.Dependency != "" {
		env = append(env, "SLURM_JOB_DEPENDENCY="+js.Dependency)
	}
	env = append(env, siteLayoutEnv(js)...)    // siteopts_env.go
	return append(env, storedLayoutEnv(js)...) // stored.go
}

// minCPUs is --mincpus for the wire (0 when not given).
func minCPUs(js *jobspec.JobSpec) uint32 {
	if js.MinCPUs == jobspec.NoVal {
		return 0
	}
	return js.MinCPUs
}

// submitHost is the short host name sbatch reports as SLURM_SUBMIT_HOST.
func submitHost() string {
	h, err := os.Hostname()
	if err != nil {
		return "localhost"
	}
	if i := strings.IndexByte(h, '.'); i > 0 {
		h = h[:i]
	}
	return h
}
