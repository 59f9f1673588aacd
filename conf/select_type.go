package conf

import "strings"

// crTypes are SelectTypeParameters' consumable-resource types, of which at most one may be
// given; crFlags the other words Slurm 22.05 accepts (case-insensitively).
var (
	crTypes = []string{"CR_Socket", "CR_Socket_Memory", "CR_Core", "CR_Core_Memory", "CR_Memory", "CR_CPU", "CR_CPU_Memory"}
	crFlags = []string{"other_cons_res", "other_cons_tres", "CR_ALLOCATE_FULL_SOCKET", "CR_ONE_TASK_PER_CORE",
		"CR_CORE_DEFAULT_DIST_BLOCK", "CR_LLN", "CR_PACK_NODES"}
)

// checkSelectTypeParameters refuses a SelectTypeParameters value as Slurm's
// parse_select_type_param does: an unknown word, CR_ONE_TASK_PER_CORE with a CR_CPU type,
// or more than one resource type ("CR_Core_Memory,CR_Socket") fails the configuration.
func (l *loader) checkSelectTypeParameters(v string) {
	types, cpu, oneTask := 0, false, false
	for _, w := range strings.Split(v, ",") {
		if w == "" {
			continue // strtok skips empty words
		}
		switch {
		case containsFold(crTypes, w):
			types++
			cpu = cpu || strings.HasPrefix(strings.ToUpper(w), "CR_CPU")
		case containsFold(crFlags, w):
			oneTask = oneTask || strings.EqualFold(w, "CR_ONE_TASK_PER_CORE")
		default:
			l.errorf("SelectTypeParameters", "Bad SelectTypeParameter: %s", w)
			l.errorf("SelectTypeParameters", "Bad SelectTypeParameter: %s", v)
			return
		}
		if cpu && oneTask {
			l.errorf("SelectTypeParameters", "CR_ONE_TASK_PER_CORE is not compatible with CR_CPU*, please change to use CR_CORE* instead.")
			l.errorf("SelectTypeParameters", "Bad SelectTypeParameter: %s", v)
			return
		}
	}
	if types > 1 {
		l.errorf("SelectTypeParameters", "Bad SelectTypeParameter: %s", v)
	}
}

func containsFold(list []string, w string) bool {
	for _, s := range list {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}
