package cmdclient_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
)

// TestSelectPluginLines: the verbose lines of the reference's sbatch -v (SelectTypeParameters
// CR_CPU there); select/linear's line needs a non-zero value.
func TestSelectPluginLines(t *testing.T) {
	want := "sbatch: select/cons_tres: common_init: select/cons_tres loaded\n" +
		"sbatch: select/cray_aries: init: Cray/Aries node selection plugin loaded\n" +
		"sbatch: select/linear: init: Linear node selection plugin loaded with argument 1\n" +
		"sbatch: select/cons_res: common_init: select/cons_res loaded\n"
	if got := cmdclient.SelectPluginLines("sbatch", &conf.Config{SelectTypeParameters: "CR_CPU"}); got != want {
		t.Errorf("CR_CPU:\n%s\nwant\n%s", got, want)
	}
	if got := (&conf.Config{SelectTypeParameters: "CR_Core_Memory,CR_LLN"}).SelectTypeParam(); got != 0x4014 {
		t.Errorf("CR_Core_Memory,CR_LLN = %#x", got)
	}
	if got := cmdclient.SelectPluginLines("salloc", &conf.Config{}); strings.Contains(got, "linear") {
		t.Errorf("no SelectTypeParameters:\n%s", got)
	}
}
