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

// crBits are the bits Slurm's parse_select_type_param sets for each SelectTypeParameters
// word (slurm.h's CR_* values); CR_ALLOCATE_FULL_SOCKET sets none.
var crBits = map[string]uint16{
	"cr_socket": 0x0002, "cr_socket_memory": 0x0012, "cr_core": 0x0004, "cr_core_memory": 0x0014,
	"cr_memory": 0x0010, "cr_cpu": 0x0001, "cr_cpu_memory": 0x0011, "other_cons_res": 0x0020,
	"other_cons_tres": 0x0800, "cr_one_task_per_core": 0x0100, "cr_core_default_dist_block": 0x1000,
	"cr_lln": 0x4000, "cr_pack_nodes": 0x0200,
}

// SelectTypeParam is SelectTypeParameters as Slurm's slurm_conf.select_type_param holds it
// (0 when not set), which Slurm's commands print at verbose level (select/linear's
// "loaded with argument N").
func (c *Config) SelectTypeParam() uint16 {
	var v uint16
	for _, w := range strings.Split(c.SelectTypeParameters, ",") {
		v |= crBits[strings.ToLower(w)]
	}
	return v
}

// CtldSelectTypeParameters is the SelectTypeParameters slurmctld runs with: the configured
// ones, or CR_Core_Memory for select/cons_tres and select/cons_res without any (their
// select_p_node_init sets it, and scontrol show config then reports it). Commands keep
// SelectTypeParameters as written: in Slurm only the controller applies the default.
func (c *Config) CtldSelectTypeParameters() string {
	if c.SelectTypeParam() == 0 && consumableSelect(c.SelectType) {
		return "CR_Core_Memory"
	}
	return c.SelectTypeParameters
}

// CtldSelectTypeParam is CtldSelectTypeParameters as bits.
func (c *Config) CtldSelectTypeParam() uint16 {
	if c.SelectTypeParam() == 0 && consumableSelect(c.SelectType) {
		return crBits["cr_core_memory"]
	}
	return c.SelectTypeParam()
}

func consumableSelect(selectType string) bool {
	switch strings.ToLower(strings.TrimSpace(selectType)) {
	case "select/cons_tres", "select/cons_res", "":
		return true
	}
	return false
}

// selectTypeParamString is Slurm's select_type_param_string: the resource type, then the
// flags, in its words and order ("CR_CORE_MEMORY,CR_ONE_TASK_PER_CORE"); "NONE" for none.
func selectTypeParamString(v uint16) string {
	const cpu, socket, core, memory = 0x0001, 0x0002, 0x0004, 0x0010
	var words []string
	switch {
	case v&cpu != 0 && v&memory != 0:
		words = append(words, "CR_CPU_MEMORY")
	case v&core != 0 && v&memory != 0:
		words = append(words, "CR_CORE_MEMORY")
	case v&socket != 0 && v&memory != 0:
		words = append(words, "CR_SOCKET_MEMORY")
	case v&cpu != 0:
		words = append(words, "CR_CPU")
	case v&core != 0:
		words = append(words, "CR_CORE")
	case v&socket != 0:
		words = append(words, "CR_SOCKET")
	case v&memory != 0:
		words = append(words, "CR_MEMORY")
	}
	for _, f := range []struct {
		bit  uint16
		word string
	}{{0x0020, "OTHER_CONS_RES"}, {0x0800, "OTHER_CONS_TRES"}, {0x0100, "CR_ONE_TASK_PER_CORE"},
		{0x1000, "CR_CORE_DEFAULT_DIST_BLOCK"}, {0x4000, "CR_LLN"}, {0x0200, "CR_PACK_NODES"}} {
		if v&f.bit != 0 {
			words = append(words, f.word)
		}
	}
	if len(words) == 0 {
		return "NONE"
	}
	return strings.Join(words, ",")
}
