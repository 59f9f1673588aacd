package conf

import (
	"fmt"
	"strings"
)

// Keys Slurm 22.05 acts on that Orbit accepts (a site's slurm.conf must load unchanged) but
// does not act on yet. Each one set to a value with an effect is reported as a warning,
// which slurmctld logs at start and `slurmctld -t` prints, so nothing is ignored silently.

// unimplementedKey is one such key: whether a value has an effect Orbit lacks, and what is
// missing.
type unimplementedKey struct {
	name    string
	effect  func(v string) bool
	missing string
}

func valueSet(v string) bool { return strings.TrimSpace(v) != "" }

func notOneOf(values ...string) func(string) bool {
	return func(v string) bool {
		for _, ok := range values {
			if strings.EqualFold(strings.TrimSpace(v), ok) {
				return false
			}
		}
		return valueSet(v)
	}
}

var unimplementedKeys = []unimplementedKey{
	{"PreemptType", notOneOf("preempt/none", "preempt/partition_prio"), "only preempt/partition_prio preempts jobs; QOS preemption needs the accounting database"},
	{"JobSubmitPlugins", valueSet, "job submit plugins are not run"},
	{"AccountingStorageEnforce", notOneOf("none", "0"), "association, QOS and limit enforcement is not done"},
	{"UnkillableStepProgram", valueSet, "it is not run for unkillable steps"},
	{"RebootProgram", valueSet, "nodes are not rebooted (scontrol reboot)"},
	{"SuspendProgram", valueSet, "idle nodes are not powered down"},
	{"ResumeProgram", valueSet, "powered-down nodes are not resumed"},
	{"MpiDefault", notOneOf("none", "pmi2", "openmpi"), "srun serves only PMI-1/PMI-2 (mpi/pmi2): steps run without PMI"},
}

// unimplemented warns about each key of unimplementedKeys set with an effect.
func (l *loader) unimplemented() {
	for _, k := range unimplementedKeys {
		if v, ok := l.raw[k.name]; ok && k.effect(v.Value) {
			l.warnf(k.name, "%s", fmt.Sprintf("%s=%s is not implemented by Orbit yet: %s", k.name, v.Value, k.missing))
		}
	}
}

// unimplementedPartitions warns about what Slurm's gang scheduler (PreemptMode=GANG) would
// do that Orbit does not: time-slice the jobs that share CPUs in an OverSubscribe=FORCE:n or
// YES:n partition (n > 1), suspending and resuming them in turn. Orbit runs them at once.
func (l *loader) unimplementedPartitions(c *Config) {
	if !c.PreemptGang() {
		return
	}
	for _, p := range c.Partitions {
		over := p.OverSubscribe
		if n, ok := strings.CutPrefix(over, "FORCE:"); ok && n != "1" || strings.HasPrefix(over, "YES:") {
			l.errs.warn(p.File, p.Line, "OverSubscribe", "PartitionName=%s OverSubscribe=%s under PreemptMode=GANG is not implemented by Orbit yet: jobs sharing CPUs run at the same time, not in time slices", p.Name, over)
		}
	}
}
