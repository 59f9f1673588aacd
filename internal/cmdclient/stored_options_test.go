package cmdclient

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
)

// TestStoredOptionsRefusal: a stored option is accepted where Slurm 22.05 would only store
// it, and refused by name where this slurm.conf has the plugin that would act on it, or
// where it would change placement Orbit does not model.
func TestStoredOptionsRefusal(t *testing.T) {
	base := "ClusterName=c\nSlurmctldHost=h\nNodeName=n[1-2] CPUs=8 Sockets=2 CoresPerSocket=4 Feature=fast\nNodeName=n3 CPUs=8 Sockets=2 CoresPerSocket=4\n" +
		"PartitionName=p Nodes=n[1-3] Default=YES\nPartitionName=one Nodes=n1\n"
	load := func(extra string) *conf.Config {
		cfg, err := conf.Parse("slurm.conf", []byte(base+extra))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	plain := load("")
	spec := func(set func(js *jobspec.JobSpec)) *jobspec.JobSpec {
		js := jobspec.New(jobspec.Sbatch)
		set(js)
		return js
	}
	for _, c := range []struct {
		name string
		cfg  *conf.Config
		prog string
		js   *jobspec.JobSpec
		want string // "" = accepted
	}{
		{"network", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Network = "x" }), ""},
		{"network with a switch", load("SwitchType=switch/hpe_slingshot\n"), "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Network = "x" }),
			"sbatch: error: --network with a SwitchType plugin is not supported by Orbit's sbatch yet\n"},
		{"mcs-label with mcs/user", load("MCSPlugin=mcs/user\n"), "srun", spec(func(js *jobspec.JobSpec) { js.Stored.MCSLabel = "x" }),
			"srun: error: --mcs-label with an MCSPlugin is not supported by Orbit's srun yet\n"},
		{"reboot", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Reboot = true }), ""},
		{"reboot with a RebootProgram", load("RebootProgram=/sbin/reboot\n"), "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Reboot = true }),
			"sbatch: error: --reboot with a RebootProgram is not supported by Orbit's sbatch yet\n"},
		{"gpu-freq without GPUs", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.GPUFreq = "high" }), ""},
		{"gpu-bind, sbatch with GPUs", load("GresTypes=gpu\n"), "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.GPUBind = "closest" }),
			"sbatch: error: --gpu-bind on a cluster with GPUs is not supported by Orbit's sbatch yet\n"},
		{"gpu-bind, sbatch without GPUs", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.GPUBind = "closest" }), ""},
		{"gpu-bind=none, srun with GPUs", load("GresTypes=gpu\n"), "srun", spec(func(js *jobspec.JobSpec) { js.Stored.GPUBind = "none" }), ""},
		{"gpu-bind, srun with GPUs", load("GresTypes=gpu\n"), "srun", spec(func(js *jobspec.JobSpec) { js.Stored.GPUBind = "closest" }),
			"srun: error: --gpu-bind on a cluster with GPUs is not supported by Orbit's srun yet\n"},
		{"contiguous on one node", plain, "sbatch", spec(func(js *jobspec.JobSpec) {
			js.Stored.Contiguous, js.NodesSet, js.MinNodes = true, true, 1
		}), ""},
		{"contiguous in a one-node partition", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Contiguous, js.Partition = true, "one" }), ""},
		{"contiguous over several: the selection's", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Contiguous = true }), ""},
		{"ntasks-per-socket not limiting", plain, "sbatch", spec(func(js *jobspec.JobSpec) {
			js.Stored.NTasksPerSocket, js.NTasksPerNode = 2, 4
		}), ""},
		{"ntasks-per-socket limiting", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.NTasksPerSocket, js.NTasks = 1, 4 }),
			"sbatch: error: --ntasks-per-socket where it limits the tasks of a node is not supported by Orbit's sbatch yet\n"},
		{"prefer all have", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Prefer, js.Partition = "fast", "one" }), ""},
		{"prefer some have", plain, "sbatch", spec(func(js *jobspec.JobSpec) { js.Stored.Prefer = "fast" }),
			"sbatch: error: --prefer where only some nodes have the features is not supported by Orbit's sbatch yet\n"},
		{"container in salloc", plain, "salloc", spec(func(js *jobspec.JobSpec) { js.Stored.Container = "/c" }),
			"salloc: error: --container is not supported by Orbit's salloc yet\n"},
	} {
		if got := StoredOptionsRefusal(c.prog, c.js, c.cfg); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
