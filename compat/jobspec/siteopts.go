package jobspec

// SiteOptions are the options real sites' job scripts carry whose effect in a cluster Orbit
// supports (no task/affinity binding, no cpufreq, no profiling plugin, no topology plugin,
// no node reboots) is to be stored, shown and exported to the job, or which change nothing
// on the cluster's nodes (checked against slurm.conf by the commands). Numeric fields hold
// NoVal when unset, strings are empty.
type SiteOptions struct {
	// Hint is --hint as given ("" when unset, or dropped because --ntasks-per-core,
	// --threads-per-core or -B was given with it, as Slurm drops it).
	Hint string
	// ThreadsPerCore, CoresPerSocket and SocketsPerNode are the node-shape requests
	// (--threads-per-core, --cores-per-socket, --sockets-per-node; --hint sets some).
	ThreadsPerCore uint32
	CoresPerSocket uint32
	SocketsPerNode uint32
	// NTasksPerCore is --ntasks-per-core; --hint=multithread sets it to 65535 (INFINITE16).
	NTasksPerCore uint32
	// Distribution is --distribution as Slurm spells it in SLURM_DISTRIBUTION
	// ("cyclic:block", "plane"); PlaneSize the plane=<size> of a plane distribution.
	Distribution string
	PlaneSize    uint32
	// MemBind is the SLURM_MEM_BIND value ("local", "map_mem:0,1"), MemBindVerbose and
	// MemBindSort its verbose and sort flags; "" when --mem-bind was not given.
	MemBind        string
	MemBindVerbose bool
	MemBindSort    bool
	// CPUFreq is --cpu-freq as Slurm prints it back (SLURM_CPU_FREQ_REQ: "High",
	// "2000000", "Low-High:Performance"); the CPUFreq* numbers are what the controller keeps.
	CPUFreq    string
	CPUFreqMin uint32
	CPUFreqMax uint32
	CPUFreqGov uint32
	// Profile is --profile as SLURM_PROFILE prints it ("Task", "Energy,Task", "None").
	Profile string
	// AcctgFreq is --acctg-freq as given.
	AcctgFreq string
	// TmpDiskMB is --tmp in MiB; NoVal64 when unset.
	TmpDiskMB uint64
	// DelayBoot is --delay-boot in seconds.
	DelayBoot uint32
	// ReqSwitch and SwitchWait are --switches=count[@max-time] (seconds).
	ReqSwitch   uint32
	SwitchWait  uint32
	SpreadJob   bool
	UseMinNodes bool
	// CoreSpec is -S/--core-spec or --thread-spec (ThreadSpec true); the commands drop it
	// with Slurm's error line when AllowSpecResourcesUsage is not set.
	CoreSpec   uint32
	ThreadSpec bool
}

// NewSiteOptions returns SiteOptions with every field unset.
func NewSiteOptions() SiteOptions {
	return SiteOptions{
		ThreadsPerCore: NoVal, CoresPerSocket: NoVal, SocketsPerNode: NoVal, NTasksPerCore: NoVal,
		PlaneSize: NoVal, CPUFreqMin: NoVal, CPUFreqMax: NoVal, CPUFreqGov: NoVal,
		TmpDiskMB: NoVal64, DelayBoot: NoVal, ReqSwitch: NoVal, SwitchWait: NoVal, CoreSpec: NoVal,
	}
}
