package cmdclient

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// StoredOptionsRefusal is what sbatch, srun or salloc (prog) prints for one of the stored
// options (compat/jobspec StoredOptions) that this cluster's configuration would act on in
// Slurm 22.05 where Orbit does not: a switch plugin for --network, an MCS plugin for
// --mcs-label, a burst buffer plugin for --bb/--bbf, oci.conf for --container, a power
// plugin for --power, GPUs for --gpu-freq and --gpu-bind (which binds each task of a step;
// sbatch and salloc refuse it too, so that a job does not fail at its first srun),
// a RebootProgram for --reboot, and the placement --ntasks-per-socket and --prefer would
// change. "" when the job may go on: then each option is only stored, shown and exported,
// exactly what Slurm does with it here. (--contiguous is the controller's selection's.)
func StoredOptionsRefusal(prog string, js *jobspec.JobSpec, cfg *conf.Config) string {
	s := &js.Stored
	raw := func(key string) string {
		if cfg == nil {
			return ""
		}
		v, _ := cfg.Get(key)
		return strings.ToLower(strings.TrimSpace(v))
	}
	hasGPUs := cfg != nil && jobspec.GresTypesHave(cfg.GresTypes, "gpu")
	inAlloc := prog == "srun" && js.JobID != ""
	nodes := PartitionNodes(js.Partition, cfg)
	gpuBindNone := strings.HasPrefix(strings.TrimPrefix(strings.ToLower(s.GPUBind), "verbose,"), "n")
	for _, c := range []struct {
		given bool
		name  string
	}{
		{s.Network != "" && raw("SwitchType") != "" && raw("SwitchType") != "switch/none", "--network with a SwitchType plugin"},
		{s.MCSLabel != "" && raw("MCSPlugin") != "" && raw("MCSPlugin") != "mcs/none", "--mcs-label with an MCSPlugin"},
		{(s.BurstBuffer != "" || s.BurstBufferFile != "") && raw("BurstBufferType") != "", "--bb/--bbf with a BurstBufferType plugin"},
		{s.Container != "" && ociConfigured(cfg), "--container with oci.conf"},
		{s.Container != "" && prog == "salloc", "--container"},
		{s.PowerFlags != 0 && raw("PowerPlugin") != "" && raw("PowerPlugin") != "power/none", "--power with a PowerPlugin"},
		{s.GPUFreq != "" && hasGPUs, "--gpu-freq on a cluster with GPUs"},
		{s.GPUBind != "" && !gpuBindNone && hasGPUs, "--gpu-bind on a cluster with GPUs"},
		{s.Reboot && raw("RebootProgram") != "", "--reboot with a RebootProgram"},
		{s.Reboot && inAlloc, "--reboot inside an allocation"},
		{s.NTasksPerSocket != jobspec.NoVal && limitsTasks(js, s.NTasksPerSocket, nodes), "--ntasks-per-socket where it limits the tasks of a node"},
		{strings.TrimSpace(s.Prefer) != "" && !inAlloc && someHave(s.Prefer, nodes), "--prefer where only some nodes have the features"},
	} {
		if c.given {
			return prog + ": error: " + c.name + " is not supported by Orbit's " + prog + " yet\n"
		}
	}
	return ""
}

// ociConfigured says whether oci.conf lies beside slurm.conf: Slurm runs --container jobs
// through it, and ignores the option without one.
func ociConfigured(cfg *conf.Config) bool {
	if cfg == nil || cfg.Path == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(cfg.Path), "oci.conf"))
	return err == nil
}

// PartitionNodes is the nodes of the partitions a job names (a "-p a,b" list; "" is the
// default partition), each once, for the commands' checks of options against node shapes.
func PartitionNodes(partitions string, cfg *conf.Config) []*conf.Node {
	if cfg == nil {
		return nil
	}
	names := strings.Split(partitions, ",")
	seen := map[string]bool{}
	var out []*conf.Node
	for _, p := range cfg.Partitions {
		named := false
		for _, n := range names {
			named = named || strings.TrimSpace(n) == p.Name
		}
		if !(named || partitions == "" && p.Default) {
			continue
		}
		for _, nn := range p.Nodes {
			if n := cfg.Node(nn); n != nil && !seen[nn] {
				seen[nn] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// limitsTasks says whether --ntasks-per-socket=nps could cap the tasks the job puts on a
// node: the most it may place on one (--ntasks-per-node, else every task, else one per node)
// against nps times the fewest sockets of its nodes. Below that the option changes nothing
// without task binding.
func limitsTasks(js *jobspec.JobSpec, nps uint32, nodes []*conf.Node) bool {
	most := uint32(1)
	switch {
	case js.NTasksPerNode != jobspec.NoVal && js.NTasksPerNode > 0:
		most = js.NTasksPerNode
	case js.NTasks != jobspec.NoVal && js.NTasks > 0:
		most = js.NTasks
	}
	for _, n := range nodes {
		sockets := uint32(max(n.Sockets, 1))
		if uint64(most) > uint64(nps)*uint64(sockets) {
			return true
		}
	}
	return false
}

// someHave says whether some but not all of the nodes have the features a --prefer
// expression names (a job would rather have those nodes; Orbit's selection has no
// preference). When none has them the controller refuses the request as Slurm does.
func someHave(prefer string, nodes []*conf.Node) bool {
	names := strings.FieldsFunc(prefer, func(r rune) bool { return strings.ContainsRune("&|,[]()", r) })
	for i, f := range names {
		names[i], _, _ = strings.Cut(f, "*") // "feature*count"
	}
	all, some := true, false
	for _, n := range nodes {
		has := true
		for _, f := range names {
			found := false
			for _, nf := range n.Features {
				found = found || nf == f
			}
			has = has && found
		}
		all, some = all && has, some || has
	}
	return some && !all
}

// StoredDesc copies the options the controller only stores and shows (compat/jobspec
// StoredOptions, --gres-flags) into a submission (sbatch's, salloc's, or srun's own allocation).
func StoredDesc(d *wire.JobDesc, js *jobspec.JobSpec) {
	s := &js.Stored
	d.GresFlags, d.Overcommit = js.GresFlags, js.Overcommit
	d.Network, d.Contiguous, d.MCSLabel = s.Network, s.Contiguous, s.MCSLabel
	d.BurstBuffer, d.Container, d.PowerFlags = s.BurstBuffer, s.Container, s.PowerFlags
	d.ClusterFeatures, d.Prefer, d.Reboot = s.ClusterFeatures, s.Prefer, s.Reboot
	if s.GPUBind != "" {
		d.TresBind = "gpu:" + s.GPUBind
	}
	if s.GPUFreq != "" {
		d.TresFreq = "gpu:" + s.GPUFreq
	}
	d.NTasksPerSocket = s.NTasksPerSocket
	d.AcctgFreq = js.Site.AcctgFreq // checked against JobAcctGatherFrequency by the controller
	// The GPU requests beyond --gres, which the controller turns into GPUs per node.
	d.TresPerJob, d.TresPerTask, d.CpusPerTres, d.MemPerTres = js.TresPerJob, js.TresPerTask, js.CpusPerTres, js.MemPerTres
}

// GPURequestEnv is what sbatch and salloc export for --cpus-per-gpu, --gpus, --gpus-per-task
// and --mem-per-gpu (set_env_from_opts): the numbers (or "type:N") as given, in that order.
func GPURequestEnv(js *jobspec.JobSpec) [][2]string {
	var out [][2]string
	for _, v := range [][2]string{{"SLURM_CPUS_PER_GPU", js.CpusPerTres}, {"SLURM_GPUS", js.TresPerJob},
		{"SLURM_GPUS_PER_TASK", js.TresPerTask}, {"SLURM_MEM_PER_GPU", js.MemPerTres}} {
		if n, ok := strings.CutPrefix(v[1], "gres:gpu:"); ok {
			out = append(out, [2]string{v[0], n})
		}
	}
	return out
}
