package conf

import (
	"reflect"
	"strings"
	"testing"
)

const propagateBase = "ClusterName=c\nSlurmctldHost=h\nNodeName=n1 CPUs=1\nPartitionName=p Nodes=n1\n"

// TestPropagateResourceLimits checks the set slurm.conf propagates and Slurm's two error
// lines, without file and line, for a bad name.
func TestPropagateResourceLimits(t *testing.T) {
	for _, c := range []struct {
		extra string
		want  []string
		errs  []string
	}{
		{"", []string{"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE", "MEMLOCK", "AS"}, nil},
		{"PropagateResourceLimits=NONE\n", nil, nil},
		{"PropagateResourceLimits=STACK,CORE\n", []string{"STACK", "CORE"}, nil},
		{"PropagateResourceLimitsExcept=MEMLOCK\nPropagateResourceLimits=CORE\n",
			[]string{"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE", "AS"}, nil},
		{"PropagateResourceLimits=CORE,BOGUS\n", nil, []string{"Bad rlimit name: BOGUS", "Bad PropagateResourceLimits: CORE,BOGUS"}},
		{"PropagateResourceLimitsExcept=RLIMIT_FOO\nPropagateResourceLimits=XX\n", nil,
			[]string{"Bad rlimit name: FOO", "Bad PropagateResourceLimitsExcept: RLIMIT_FOO"}},
	} {
		cfg, err := Parse("slurm.conf", []byte(propagateBase+c.extra))
		if c.errs != nil {
			if err == nil || err.Error() != strings.Join(c.errs, "\n") {
				t.Errorf("%q: error %v, want %q", c.extra, err, c.errs)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.extra, err)
		}
		if got := cfg.PropagateRlimits.Names(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: propagates %v, want %v", c.extra, got, c.want)
		}
	}
}
