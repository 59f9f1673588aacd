package cmdclient

import (
	"fmt"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
)

// SelectPluginLines is what Slurm 22.05's sbatch and salloc print at verbose level once their
// options are read: each node selection plugin of the installation says it was loaded (select
// plugins log at verbose level when the command loads them all). The plugins and their order
// are those of Debian's slurm-wlm package, as the reference prints them; select/linear names
// SelectTypeParameters' value, and says nothing of it when that is 0.
func SelectPluginLines(prog string, c *conf.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: select/cons_tres: common_init: select/cons_tres loaded\n", prog)
	fmt.Fprintf(&b, "%s: select/cray_aries: init: Cray/Aries node selection plugin loaded\n", prog)
	if v := c.SelectTypeParam(); v != 0 {
		fmt.Fprintf(&b, "%s: select/linear: init: Linear node selection plugin loaded with argument %d\n", prog, v)
	}
	fmt.Fprintf(&b, "%s: select/cons_res: common_init: select/cons_res loaded\n", prog)
	return b.String()
}

// PluginDebugLines are the debug lines (-vv) of the plugins Slurm 22.05's commands load after
// the node selection ones: the authentication plugin (auth/munge's, the reference's) and the
// hash plugin (hash/k12, 22.05's default).
func PluginDebugLines(prog, authType string) string {
	var b strings.Builder
	if authType == "auth/munge" {
		fmt.Fprintf(&b, "%s: debug:  auth/munge: init: Munge authentication plugin loaded\n", prog)
	}
	fmt.Fprintf(&b, "%s: debug:  hash/k12: init: init: KangarooTwelve hash plugin loaded\n", prog)
	return b.String()
}
