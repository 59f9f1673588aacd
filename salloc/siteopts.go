package main

import (
	"strconv"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// siteEnv is what the site options salloc accepts (compat/jobspec SiteOptions that only
// travel in the environment) add to the command's environment, as Slurm's salloc sets them:
// env_array_for_job's SLURM_DISTRIBUTION, SLURM_DIST_PLANESIZE and SLURM_ACCTG_FREQ, and
// salloc's own SLURM_MEM_BIND* (unless inherited), SLURM_PROFILE and SLURM_CPU_FREQ_REQ.
func siteEnv(js *jobspec.JobSpec, base []string) [][2]string {
	s := &js.Site
	var out [][2]string
	add := func(k, v string) { out = append(out, [2]string{k, v}) }
	inherited := func(k string) bool {
		for _, kv := range base {
			if len(kv) > len(k) && kv[:len(k)+1] == k+"=" {
				return true
			}
		}
		return false
	}
	if s.Distribution != "" {
		add("SLURM_DISTRIBUTION", s.Distribution)
		if s.PlaneSize != jobspec.NoVal {
			add("SLURM_DIST_PLANESIZE", strconv.FormatUint(uint64(s.PlaneSize), 10))
		}
	}
	if s.AcctgFreq != "" {
		add("SLURM_ACCTG_FREQ", s.AcctgFreq)
	}
	if s.MemBind != "" {
		if !inherited("SLURM_MEM_BIND") {
			add("SLURM_MEM_BIND", s.MemBind)
		}
		if s.MemBindSort && !inherited("SLURM_MEM_BIND_SORT") {
			add("SLURM_MEM_BIND_SORT", "sort")
		}
		if !inherited("SLURM_MEM_BIND_VERBOSE") {
			v := "quiet"
			if s.MemBindVerbose {
				v = "verbose"
			}
			add("SLURM_MEM_BIND_VERBOSE", v)
		}
	}
	if s.Profile != "" {
		add("SLURM_PROFILE", s.Profile)
	}
	// How the job uses the threads of its cores: salloc's SLURM_HINT,
	// SLURM_THREADS_PER_CORE and env_array_for_job's SLURM_NTASKS_PER_CORE.
	if s.Hint != "" {
		add("SLURM_HINT", s.Hint)
	}
	if s.ThreadsPerCore != jobspec.NoVal {
		add("SLURM_THREADS_PER_CORE", strconv.FormatUint(uint64(s.ThreadsPerCore), 10))
	}
	if s.NTasksPerCore != jobspec.NoVal {
		add("SLURM_NTASKS_PER_CORE", strconv.FormatUint(uint64(s.NTasksPerCore), 10))
	}
	if s.CPUFreq != "" {
		add("SLURM_CPU_FREQ_REQ", s.CPUFreq)
	}
	// The stored options: env_array_for_job's SLURM_NETWORK and SLURM_NTASKS_PER_SOCKET,
	// set_env_from_opts's SLURM_GPU_BIND and SLURM_GPU_FREQ.
	st := &js.Stored
	if st.GPUBind != "" {
		add("SLURM_GPU_BIND", st.GPUBind)
	}
	if st.GPUFreq != "" {
		add("SLURM_GPU_FREQ", st.GPUFreq)
	}
	if st.NTasksPerSocket != jobspec.NoVal {
		add("SLURM_NTASKS_PER_SOCKET", strconv.FormatUint(uint64(st.NTasksPerSocket), 10))
	}
	if st.Network != "" {
		add("SLURM_NETWORK", st.Network)
	}
	if js.Overcommit {
		add("SLURM_OVERCOMMIT", "1")
	}
	return append(out, cmdclient.GPURequestEnv(js)...)
}
