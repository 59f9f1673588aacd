package selection

import "strings"

// Mode is what the select plugin consumes, from SelectType and SelectTypeParameters.
type Mode struct {
	// CPUs are consumed: a CPU allocated to one job is not given to another.
	CPUs bool
	// Memory is consumed (the _Memory variants and CR_Memory).
	Memory bool
	// WholeNode is select/linear: every job takes whole nodes.
	WholeNode bool
	// WholeCores is CR_Core and CR_Socket (and the default, CR_Core_Memory): a job's CPUs on
	// a node with several threads per core are the whole cores it takes (cores.go). Under
	// CR_CPU and CR_Memory they are the CPUs its tasks ask for.
	WholeCores bool
}

// ParseMode reads SelectType and SelectTypeParameters as slurmctld does: without
// SelectTypeParameters, select/cons_tres (and cons_res) run as CR_Core_Memory.
func ParseMode(selectType, params string) Mode {
	m := Mode{CPUs: true, WholeCores: true}
	if strings.EqualFold(strings.TrimSpace(selectType), "select/linear") {
		m.WholeNode = true
	} else if strings.TrimSpace(params) == "" {
		params = "CR_Core_Memory"
	}
	for _, p := range strings.Split(params, ",") {
		p = strings.ToUpper(strings.TrimSpace(p))
		switch {
		case p == "CR_MEMORY":
			m.CPUs, m.WholeCores = false, false
			m.Memory = true
		case strings.HasPrefix(p, "CR_CPU"):
			m.WholeCores = false
			m.Memory = m.Memory || p == "CR_CPU_MEMORY"
		case strings.HasPrefix(p, "CR_") && strings.HasSuffix(p, "_MEMORY"):
			m.Memory = true
		}
	}
	return m
}
