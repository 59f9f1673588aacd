package conf

import "strings"

// HealthCheckNodeState flags: which nodes the controller asks to run HealthCheckProgram
// (Slurm's HEALTH_CHECK_NODE_* and HEALTH_CHECK_CYCLE).
const (
	HealthCheckIdle  uint16 = 1 << iota // IDLE: no CPU allocated
	HealthCheckAlloc                    // ALLOC: every CPU allocated
	HealthCheckMixed                    // MIXED: some CPUs allocated
	HealthCheckCycle                    // CYCLE: spread the nodes over the interval

	HealthCheckAny = HealthCheckIdle | HealthCheckAlloc | HealthCheckMixed // ANY, the default
)

// parseHealthCheckNodeState is Slurm's _health_node_state: a comma-separated list, unknown
// words warned about and ignored, ANY when no state is named.
func (l *loader) parseHealthCheckNodeState(v string) uint16 {
	var flags uint16
	for _, w := range strings.Split(v, ",") {
		switch strings.ToUpper(w) {
		case "ANY":
			flags |= HealthCheckAny
		case "ALLOC":
			flags |= HealthCheckAlloc
		case "IDLE":
			flags |= HealthCheckIdle
		case "MIXED":
			flags |= HealthCheckMixed
		case "CYCLE":
			flags |= HealthCheckCycle
		default:
			l.clientWarnf("HealthCheckNodeState", "Invalid HealthCheckNodeState value %s ignored", w)
		}
	}
	if flags&HealthCheckAny == 0 {
		flags |= HealthCheckAny
	}
	return flags
}

// healthCheckNodeStateString is how show config prints the flags (Slurm's
// health_check_node_state_str): CYCLE first, then ANY or the states named.
func healthCheckNodeStateString(flags uint16) string {
	var words []string
	if flags&HealthCheckCycle != 0 {
		words = append(words, "CYCLE")
	}
	if flags&HealthCheckAny == HealthCheckAny {
		return strings.Join(append(words, "ANY"), ",")
	}
	for _, s := range []struct {
		flag uint16
		word string
	}{{HealthCheckIdle, "IDLE"}, {HealthCheckAlloc, "ALLOC"}, {HealthCheckMixed, "MIXED"}} {
		if flags&s.flag != 0 {
			words = append(words, s.word)
		}
	}
	return strings.Join(words, ",")
}
