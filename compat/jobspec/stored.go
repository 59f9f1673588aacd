package jobspec

// StoredOptions are the options whose effect in Slurm 22.05, on a cluster without the plugin
// that would act on them (switch, MCS, burst buffer, OCI container, power, federation, GPU
// frequency control), is what the controller stores and shows and what the job's
// environment exports. The commands refuse the ones a configuration would act on
// (internal/cmdclient.StoredOptionsRefusal). An empty value counts as not given: Slurm keeps
// the empty string and prints it ("MCS_label=", "Prefer="), Orbit prints what it prints for
// an option not given.
type StoredOptions struct {
	Network         string // --network (scontrol's Network=; salloc's SLURM_NETWORK)
	Contiguous      bool   // --contiguous
	MCSLabel        string // --mcs-label
	BurstBuffer     string // --bb, or salloc/srun --bbf's file contents
	BurstBufferFile string // --bbf as given (sbatch splices the file into the script)
	Container       string // --container (SLURM_CONTAINER)
	PowerFlags      uint16 // --power: PowerLevel when "level" was named
	ClusterFeatures string // --cluster-constraint
	Prefer          string // --prefer (features the job would rather have)
	GPUBind         string // --gpu-bind as given (TresBind=gpu:<it>, SLURM_GPU_BIND)
	GPUFreq         string // --gpu-freq as given (TresFreq=gpu:<it>, SLURM_GPU_FREQ)
	NTasksPerSocket uint32 // --ntasks-per-socket; NoVal when unset
	Reboot          bool   // --reboot: whole nodes, rebooted first where RebootProgram is set
	ExportFile      string // sbatch --export-file: a file, or a descriptor number 3..
}

// PowerLevel is Slurm's SLURM_POWER_FLAGS_LEVEL, the one --power flag (scontrol: Power=LEVEL).
const PowerLevel uint16 = 1

// NewStoredOptions returns StoredOptions with every field unset.
func NewStoredOptions() StoredOptions {
	return StoredOptions{NTasksPerSocket: NoVal}
}
