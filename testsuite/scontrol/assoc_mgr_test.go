package scontrol_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_ShowAssocMgr runs scontrol show assoc_mgr with each kind of option against
// what the reference printed on a cluster without slurmdbd (its cache is empty, as Orbit's
// controller, which keeps no associations, always is), then with the controller gone.
func TestScontrol_ShowAssocMgr(t *testing.T) {
	const (
		head  = "Current Association Manager state\n"
		users = "\nNo users currently cached in Slurm.\n\n"
		assoc = "\nNo associations currently cached in Slurm.\n\n"
		qos   = "\nNo QOS currently cached in Slurm.\n\n"
	)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, k := range []struct {
		args, out, err string
		rc             int
	}{
		{"show assoc_mgr", head + users + assoc + qos, "", 0},
		{"show cache flags=users", head + users, "", 0},
		{"show assoc_mgr flags=Assoc", head + assoc, "", 0},
		{"show assoc_mgr flags=users,qos", head + users + qos, "", 0},
		{"show assoc_mgr accounts=a users=root", head + users + assoc + qos, "", 0},
		{"-o show assoc_mgr", head + "No users currently cached in Slurm.\nNo associations currently cached in Slurm.\nNo QOS currently cached in Slurm.\n", "", 0},
		{"show assoc_mgr flags=", "", "No value given for option flags=\n", 0},
		{"show assoc_mgr users", "", "No value given for option users\n", 0},
		{"show assoc_mgr flags=x", "", "invalid flag 'x', valid options are 'Assoc, QOS, and/or Users'\n", 0},
		{"show assoc_mgr partition=debug", "", "invalid entity: partition=debug for keyword:show assoc_mgr\n", 1},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != k.out || errOut != k.err || code != k.rc {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr %q",
				k.args, code, out, errOut, k.rc, k.out, k.err)
		}
	}
	c.KillController(t)
	out, errOut, code := c.Run(t, "scontrol", "show", "assoc_mgr")
	if want := "slurm_load_assoc_mgr_info error: Unable to contact slurm controller (connect failure)\n"; out != "" || errOut != want || code != 1 {
		t.Errorf("scontrol show assoc_mgr without a controller: exit %d, %q, %q; want exit 1, %q", code, out, errOut, want)
	}
}
