package scontrol_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_Reboot runs scontrol reboot and cancel_reboot on a cluster without a
// RebootProgram (the harness's, like the reference's), with the reference's answers.
func TestScontrol_Reboot(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	const noProgram = "scontrol: error: RebootProgram isn't defined\nscontrol_reboot_nodes error: Unspecified error\n"
	for _, k := range []struct {
		args, err string
	}{
		{"reboot", "Missing node list. Specify ALL|<NodeList>\n"},
		{"reboot asap", "Missing node list. Specify ALL|<NodeList>\n"},
		{"reboot a b", "too many arguments for keyword:reboot\n"},
		{"reboot reason= n1", "missing reason\n"},
		{"reboot nextstate= n1", "missing state\n"},
		{"reboot asap reason=x nextstate=bogus n1", "Invalid state: bogus\nValid states: DOWN, RESUME\n"},
		{"reboot ALL", noProgram},
		{"reb nextstate=d reason=x asap n1", noProgram},
		{"reboot_nodes asap asap asap n1", noProgram},
		{"cancel_reboot", "missing argument for keyword:cancel_reboot\n"},
		{"cancel_reboot n1", "slurm_update error: Invalid node state specified\n"},
		{"cancel_reboot n9", "slurm_update error: Invalid node name specified\n"},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != "" || errOut != k.err || code != 1 {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", k.args, code, out, errOut, k.err)
		}
	}
	if o, _, _ := c.Run(t, "sinfo", "-h", "-o", "%t"); o != "idle\n" {
		t.Errorf("node after the cases: %q, want idle", o)
	}
}

// TestScontrol_Token runs scontrol token on a cluster without auth/jwt: the reference
// cannot make one there either.
func TestScontrol_Token(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, k := range []struct{ args, err string }{
		{"token", "Error fetching token\n"},
		{"token lifespan=60 username=root", "Error fetching token\n"},
		{"token bogus", "Invalid option: `bogus`\n"},
		{"token lifespan", "Invalid option: `lifespan`\n"},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != "" || errOut != k.err || code != 1 {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", k.args, code, out, errOut, k.err)
		}
	}
}
