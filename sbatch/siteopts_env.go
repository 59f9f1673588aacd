package main

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// siteDesc copies the site options the controller stores and shows into the submission.
func siteDesc(d *wire.JobDesc, js *jobspec.JobSpec) {
	s := &js.Site
	d.ThreadsPerCore, d.CoresPerSocket, d.SocketsPerNode = s.ThreadsPerCore, s.CoresPerSocket, s.SocketsPerNode
	d.NTasksPerCore = s.NTasksPerCore
	d.CPUFreqMin, d.CPUFreqMax, d.CPUFreqGov = s.CPUFreqMin, s.CPUFreqMax, s.CPUFreqGov
	d.TmpDiskMB, d.DelayBoot = s.TmpDiskMB, s.DelayBoot
	d.ReqSwitch, d.SwitchWait, d.SpreadJob, d.UseMinNodes = s.ReqSwitch, s.SwitchWait, s.SpreadJob, s.UseMinNodes
}

// siteLayoutEnv is the part of sbatch's set_envs the site options add to the job's
// environment whatever --export says: the distribution, memory binding, tasks per core and
// threads per core the job asked for.
func siteLayoutEnv(js *jobspec.JobSpec) []string {
	s := &js.Site
	var env []string
	u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	if s.Distribution != "" {
		env = append(env, "SLURM_DISTRIBUTION="+s.Distribution)
	}
	if d, _, _ := strings.Cut(s.Distribution, ","); d == "arbitrary" && js.NodeList != "" {
		// The nodes the job asks for, which the batch step and its sruns lay tasks out on.
		env = append(env, "SLURM_ARBITRARY_NODELIST="+js.NodeList)
	}
	if s.MemBind != "" {
		env = append(env, "SLURM_MEM_BIND="+s.MemBind)
		if s.MemBindSort {
			env = append(env, "SLURM_MEM_BIND_SORT=sort")
		}
		verbose := "quiet"
		if s.MemBindVerbose {
			verbose = "verbose"
		}
		env = append(env, "SLURM_MEM_BIND_VERBOSE="+verbose)
	}
	if s.NTasksPerCore != jobspec.NoVal {
		env = append(env, "SLURM_NTASKS_PER_CORE="+u(s.NTasksPerCore))
	}
	if s.PlaneSize != jobspec.NoVal {
		env = append(env, "SLURM_DIST_PLANESIZE="+u(s.PlaneSize))
	}
	if s.ThreadsPerCore != jobspec.NoVal {
		env = append(env, "SLURM_THREADS_PER_CORE="+u(s.ThreadsPerCore))
	}
	return env
}

// siteOwnEnv is what sbatch sets in its own environment for the site options (verify_hint,
// _opt_verify): the job sees it as part of the submitting environment, so like SLURM_* it
// survives --export=NONE.
func siteOwnEnv(js *jobspec.JobSpec) []string {
	s := &js.Site
	var env []string
	if js.Name != "" {
		env = append(env, "SLURM_JOB_NAME="+js.Name) // _opt_verify
	}
	if s.Hint != "" {
		env = append(env, "SLURM_HINT="+s.Hint)
	}
	if s.Profile != "" {
		env = append(env, "SLURM_PROFILE="+s.Profile)
	}
	if s.AcctgFreq != "" {
		env = append(env, "SLURM_ACCTG_FREQ="+s.AcctgFreq)
	}
	if s.CPUFreq != "" {
		env = append(env, "SLURM_CPU_FREQ_REQ="+s.CPUFreq)
	}
	if c := js.Stored.Container; c != "" && !inherited(js.Env, "SLURM_CONTAINER") {
		env = append(env, "SLURM_CONTAINER="+c) // sbatch keeps an inherited one
	}
	return env
}

// setOwnEnv returns env with each NAME=value of set replacing the variable or appended, as
// setenv(3) does; env itself is not modified.
func setOwnEnv(env, set []string) []string {
	if len(set) == 0 {
		return env
	}
	out := append([]string(nil), env...)
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		replaced := false
		for i, e := range out {
			if strings.HasPrefix(e, name+"=") {
				out[i], replaced = kv, true
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	return out
}

// inherited says whether sbatch's environment sets name.
func inherited(env []string, name string) bool {
	_, ok := jobspec.Lookup(env, name)
	return ok
}
