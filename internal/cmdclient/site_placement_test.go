package cmdclient

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
)

// TestPlacementRefusal: --switches and -S are accepted where
// they cannot change the placement and refused by name where they would; -S without
// AllowSpecResourcesUsage is dropped with Slurm's note (the reference printed it for srun,
// salloc and sbatch alike, and ran the job).
func TestPlacementRefusal(t *testing.T) {
	load := func(extra string) *conf.Config {
		cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=c\nSlurmctldHost=h\nNodeName=n[1-2] CPUs=8\n"+
			"PartitionName=p Nodes=n[1-2] Default=YES\nPartitionName=one Nodes=n1\n"+extra))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	plain := load("")
	for _, c := range []struct {
		name string
		cfg  *conf.Config
		set  func(js *jobspec.JobSpec)
		want string
	}{
		{"spread-job over two nodes", plain, func(js *jobspec.JobSpec) { js.Site.SpreadJob = true }, ""}, // the controller spreads it
		{"spread-job on one node", plain, func(js *jobspec.JobSpec) { js.Site.SpreadJob, js.Partition = true, "one" }, ""},
		{"spread-job with -N1", plain, func(js *jobspec.JobSpec) { js.Site.SpreadJob, js.NodesSet, js.MinNodes = true, true, 1 }, ""},
		{"use-min-nodes with a range", plain, func(js *jobspec.JobSpec) { js.Site.UseMinNodes = true }, ""}, // the controller aims at the minimum
		{"use-min-nodes with -N2", plain, func(js *jobspec.JobSpec) { js.Site.UseMinNodes, js.NodesSet, js.MinNodes = true, true, 2 }, ""},
		{"switches without topology", plain, func(js *jobspec.JobSpec) { js.Site.ReqSwitch = 1 }, ""},
		{"switches with topology/tree", load("TopologyPlugin=topology/tree\n"), func(js *jobspec.JobSpec) { js.Site.ReqSwitch = 1 }, "--switches with a topology plugin"},
		{"core-spec allowed", load("AllowSpecResourcesUsage=YES\n"), func(js *jobspec.JobSpec) { js.Site.CoreSpec = 1 }, "--core-spec/--thread-spec with AllowSpecResourcesUsage"},
		{"core-spec not allowed", plain, func(js *jobspec.JobSpec) { js.Site.CoreSpec = 1 }, ""},
	} {
		js := jobspec.New(jobspec.Srun)
		c.set(js)
		if got := PlacementRefusal(js, c.cfg); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	js := jobspec.New(jobspec.Srun)
	js.Site.CoreSpec, js.Site.ThreadSpec = 1, true
	w := SpecWarnings("srun", js, plain)
	if len(w) != 1 || w[0] != "srun: error: Ignoring --thread-spec since it's not allowed by configuration (AllowSpecResourcesUsage = No)\n" || js.Site.CoreSpec != jobspec.NoVal {
		t.Errorf("--thread-spec without AllowSpecResourcesUsage: %q, CoreSpec %d", w, js.Site.CoreSpec)
	}
}

// TestNoOpRefusal: --accel-bind, --resv-ports and --x11 are accepted only where Slurm would
// do nothing with them; --x11 without a DISPLAY stops as Slurm's does (exit 255).
func TestNoOpRefusal(t *testing.T) {
	load := func(extra string) *conf.Config {
		cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=c\nSlurmctldHost=h\nNodeName=n1 CPUs=8\nPartitionName=p Nodes=n1 Default=YES\n"+extra))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	plain, gpus, ports := load(""), load("GresTypes=gpu\n"), load("MpiParams=ports=12000-12999\n")
	t.Setenv("DISPLAY", "")
	for _, c := range []struct {
		name string
		cfg  *conf.Config
		set  func(js *jobspec.JobSpec)
		want string
		code int
	}{
		{"accel-bind=g without GPUs", plain, func(js *jobspec.JobSpec) { js.AccelBind = "g" }, "", 0},
		{"accel-bind=g with GPUs", gpus, func(js *jobspec.JobSpec) { js.AccelBind = "vg" }, "srun: error: --accel-bind=g with GPUs is not supported by Orbit's srun yet\n", 1},
		{"accel-bind=n with GPUs", gpus, func(js *jobspec.JobSpec) { js.AccelBind = "n" }, "", 0},
		{"resv-ports without a count", plain, func(js *jobspec.JobSpec) { js.ResvPortsSet = true }, "", 0},
		{"resv-ports with a count", plain, func(js *jobspec.JobSpec) { js.ResvPortsSet, js.ResvPorts = true, 2 }, "srun: error: --resv-ports with ports to reserve is not supported by Orbit's srun yet\n", 1},
		{"resv-ports with MpiParams=ports", ports, func(js *jobspec.JobSpec) { js.ResvPortsSet = true }, "srun: error: --resv-ports with ports to reserve is not supported by Orbit's srun yet\n", 1},
		{"x11 without DISPLAY", plain, func(js *jobspec.JobSpec) { js.X11Set = true }, "srun: error: No DISPLAY variable set, cannot setup x11 forwarding.\n", 255},
	} {
		js := jobspec.New(jobspec.Srun)
		c.set(js)
		if got, code := NoOpRefusal("srun", js, c.cfg); got != c.want || code != c.code {
			t.Errorf("%s: %q exit %d, want %q exit %d", c.name, got, code, c.want, c.code)
		}
	}
}
