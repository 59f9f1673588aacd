package scontrol_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_SetDebug runs setdebug, setdebugflags and schedloglevel with the reference's
// answers (cases recorded from Slurm 22.05), checks that show config follows and that a
// reconfigure brings slurm.conf's values back, and that the controller's log level really
// changes.
func TestScontrol_SetDebug(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, k := range []struct {
		args, err string
		rc        int
	}{
		{"setdebug", "too few arguments for keyword:setdebug\n", 1},
		{"setdebug info extra", "too many arguments for keyword:setdebug\n", 1},
		{"setdebug bogus", "invalid debug level: bogus\n", 1},
		{"setdebug 12", "invalid debug level: 12\n", 1},
		{"setdebug -1", "", 0}, // strtoul's huge value is Slurm's "no level": nothing is sent
		{"setdebugflags Backfill", "invalid debug flag: Backfill\nUsage: setdebugflags [+|-]NAME\n", 1},
		{"setdebugflags +bogus", "scontrol: error: Invalid DebugFlag: bogus\ninvalid debug flag: +bogus\n", 1},
		{"setdebugflags +backfill,+steps", "scontrol: error: Invalid DebugFlag: +steps\ninvalid debug flag: +backfill,+steps\n", 1},
		{"setdebugflags", "too few arguments for keyword:setdebugflags\n", 1},
		{"schedloglevel x", "invalid schedlog level: x\n", 1},
		{"schedloglevel enable", "slurm_set_schedlog_level error: Requested operation is presently disabled\n", 1},
		{"setdebugflags +steps", "", 0},
		{"setdebugflags +backfill,gres", "", 0},
		{"setdebugflags -Steps", "", 0},
		{"setdebug debug3", "", 0},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != "" || errOut != k.err || code != k.rc {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", k.args, code, out, errOut, k.rc, k.err)
		}
	}
	shown := func() string {
		out, _, _ := c.Run(t, "scontrol", "show", "config")
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "DebugFlags ") || strings.HasPrefix(l, "SlurmctldDebug ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if got, want := shown(), "DebugFlags              = Backfill,Gres\nSlurmctldDebug          = debug3"; got != want {
		t.Errorf("show config after setdebug and setdebugflags:\n%s\nwant\n%s", got, want)
	}

	// The harness runs the controller at debug: at quiet its log takes no info line.
	log := filepath.Join(c.Dir, "log", "slurmctld.log")
	if _, errOut, code := c.Run(t, "scontrol", "setdebug", "quiet"); code != 0 {
		t.Fatalf("setdebug quiet: exit %d, %q", code, errOut)
	}
	before, _ := os.ReadFile(log)
	quiet, errOut, code := c.Run(t, "sbatch", "--parsable", "-H", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch: exit %d, %q", code, errOut)
	}

	if _, errOut, code := c.Run(t, "scontrol", "reconfigure"); code != 0 {
		t.Fatalf("reconfigure: exit %d, %q", code, errOut)
	}
	if got, want := shown(), "DebugFlags              = (null)\nSlurmctldDebug          = debug"; got != want {
		t.Errorf("show config after reconfigure:\n%s\nwant slurm.conf's\n%s", got, want)
	}
	loud, _, _ := c.Run(t, "sbatch", "--parsable", "-H", "--wrap", "true")
	submitted := func(b []byte, id string) bool {
		return strings.Contains(string(b), `msg="job submitted" job=`+strings.TrimSpace(id)+" ")
	}
	deadline := time.Now().Add(10 * time.Second)
	var after []byte
	for {
		after, _ = os.ReadFile(log)
		if submitted(after[len(before):], loud) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after reconfigure the controller logs no submit at slurm.conf's level:\n%s", after[len(before):])
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The log is written in order: the quiet job's line would be there by now.
	if submitted(after[len(before):], quiet) {
		t.Errorf("at setdebug quiet the controller still logged job %s's submit", strings.TrimSpace(quiet))
	}
}

// TestScontrol_FSDampeningFactor sets FairShareDampeningFactor under priority/multifactor,
// where show config prints it, and checks that a reconfigure brings slurm.conf's back.
func TestScontrol_FSDampeningFactor(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "PriorityType=priority/multifactor\n"})
	factor := func() string {
		out, _, _ := c.Run(t, "scontrol", "show", "config")
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "FairShareDampeningFactor ") {
				return l
			}
		}
		return ""
	}
	for _, k := range []struct{ args, err string }{
		{"fsdampeningfactor 0", "invalid dampening factor: 0\n"},
		{"fsdampeningfactor 65536", "invalid dampening factor: 65536\n"},
		{"fairsharedampeningfactor 4", ""},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != "" || errOut != k.err || code != 0 {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit 0, stderr %q", k.args, code, out, errOut, k.err)
		}
	}
	if got := factor(); got != "FairShareDampeningFactor = 4" {
		t.Errorf("show config after fsdampeningfactor 4: %q", got)
	}
	c.Run(t, "scontrol", "reconfigure")
	if got := factor(); got != "FairShareDampeningFactor = 1" {
		t.Errorf("show config after reconfigure: %q, want slurm.conf's 1", got)
	}
}
