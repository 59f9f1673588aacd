package options

import (
	"strings"
	"testing"
)

// TestHelpText_TaskPlugin checks which binding options each command's --help lists for each
// TaskPlugin, as Slurm 22.05's sbatch, salloc and srun print them.
func TestHelpText_TaskPlugin(t *testing.T) {
	base := "before\n" + helpAnchor + "\nafter\n"
	for _, tc := range []struct {
		prog, plugin string
		want         []string // the options listed after the anchor, in order
	}{
		{"srun", "task/none", nil},
		{"srun", "task/cgroup", []string{"--cpu-bind=", "--hint="}},
		{"srun", "task/affinity,task/cgroup", []string{"--cpu-bind=", "--hint=", "--mem-bind="}},
		{"sbatch", "task/cgroup", nil},
		{"sbatch", "task/affinity", []string{"--hint=", "--mem-bind="}},
		{"salloc", "task/affinity,task/cgroup", []string{"--hint=", "--mem-bind="}},
	} {
		got := HelpText(tc.prog, base, tc.plugin)
		added := strings.TrimSuffix(strings.TrimPrefix(got, "before\n"+helpAnchor), "\nafter\n")
		var opts []string
		for _, l := range strings.Split(added, "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "--") {
				opts = append(opts, f[0])
			}
		}
		if strings.Join(opts, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s under %s lists %q, want %q", tc.prog, tc.plugin, opts, tc.want)
		}
	}
}
