package conf

import (
	"strings"
	"testing"
)

// TestShowConfig_SelectTypeParameters: scontrol show config prints the controller's
// SelectTypeParameters in Slurm's words (select_type_param_string): select/cons_tres
// without any runs as CR_Core_Memory, as the reference printed with the line removed from
// its slurm.conf; select/linear without any prints no line (config_info.c lists the key only
// when set). Commands keep the value as written (SelectTypeParam).
func TestShowConfig_SelectTypeParameters(t *testing.T) {
	for _, tc := range []struct{ conf, want string }{
		{"", "CR_CORE_MEMORY"},
		{"SelectTypeParameters=CR_Core_Memory\n", "CR_CORE_MEMORY"},
		{"SelectTypeParameters=cr_cpu\n", "CR_CPU"},
		{"SelectTypeParameters=CR_LLN,CR_Socket_Memory\n", "CR_SOCKET_MEMORY,CR_LLN"},
		{"SelectTypeParameters=CR_Core,CR_ONE_TASK_PER_CORE,CR_Pack_Nodes\n", "CR_CORE,CR_ONE_TASK_PER_CORE,CR_PACK_NODES"},
		{"SelectType=select/linear\n", ""},
		{"SelectType=select/linear\nSelectTypeParameters=CR_Memory\n", "CR_MEMORY"},
	} {
		var got string
		for _, l := range showLines(t, tc.conf) {
			if strings.HasPrefix(l, "SelectTypeParameters ") {
				got = strings.TrimSpace(l[strings.Index(l, "=")+1:])
			}
		}
		if got != tc.want {
			t.Errorf("%q: SelectTypeParameters = %q, want %q", tc.conf, got, tc.want)
		}
	}
	c, err := Parse("slurm.conf", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.SelectTypeParam() != 0 || c.CtldSelectTypeParameters() != "CR_Core_Memory" {
		t.Errorf("no SelectTypeParameters: commands see %#x, the controller %q; want 0 and CR_Core_Memory", c.SelectTypeParam(), c.CtldSelectTypeParameters())
	}
}
