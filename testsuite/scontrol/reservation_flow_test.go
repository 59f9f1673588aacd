package scontrol_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_ReservationFlow runs one reservation's life on a four-node cluster shaped
// like the reference's (64 CPUs a node) and compares each step with what the reference
// printed for it (times normalised): create, show (long and one-liner), sinfo's views, a
// job in the reservation and one kept out of it, a delete refused while a job names it, an
// update, the reservation surviving a crash of the controller, and the delete.
func TestScontrol_ReservationFlow(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 64, ExtraConf: "AccountingStorageType=accounting_storage/orbit\n"})
	times := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`)
	step := func(args, wantOut, wantErr string, wantRC int) {
		t.Helper()
		f := strings.Fields(args)
		out, errOut, rc := c.RunNamed(t, f[0], f[1:]...)
		out = times.ReplaceAllString(out, "TIME")
		if out != wantOut || errOut != wantErr || rc != wantRC {
			t.Errorf("%s:\nstdout %q\nstderr %q\nexit %d\nwant stdout %q\nstderr %q\nexit %d", args, out, errOut, rc, wantOut, wantErr, wantRC)
		}
	}
	show := "ReservationName=resvA StartTime=TIME EndTime=TIME Duration=01:00:00\n" +
		"   Nodes=n[1-2] NodeCnt=2 CoreCnt=128 Features=(null) PartitionName=(null) Flags=SPEC_NODES\n" +
		"   TRES=cpu=128\n" +
		"   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null) Watts=n/a\n" +
		"   MaxStartDelay=(null)\n\n"
	step("scontrol show reservation", "No reservations in the system\n", "", 0)
	step("scontrol show reservation maint", "Reservation maint not found\n", "", 1)
	step("scontrol create reservation reservationname=resvA starttime=now duration=60 nodes=n[1-2] users=root",
		"Reservation created: resvA\n", "", 0)
	step("scontrol show reservation resvA", show, "", 0)
	step("scontrol show res resvA -o", strings.ReplaceAll(strings.TrimSuffix(show, "\n"), "\n   ", " "), "", 0)
	step("scontrol show res nope", "Reservation nope not found\n", "", 1)
	step("scontrol show ReservationName=maint", "Reservation maint not found\n", "", 1)
	step("sinfo -T", "RESV_NAME     STATE           START_TIME             END_TIME     DURATION  NODELIST\n"+
		"resvA        ACTIVE  TIME  TIME     01:00:00  n[1-2]\n", "", 0)
	step("sinfo", "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"+
		"debug*       up   infinite      2   resv n[1-2]\n"+
		"debug*       up   infinite      2   idle n[3-4]\n", "", 0)
	if out, _, _ := c.Run(t, "scontrol", "show", "node", "n1"); !strings.Contains(out, "   State=IDLE+RESERVED ") {
		t.Errorf("scontrol show node n1:\n%s\nwant State=IDLE+RESERVED", out)
	}

	in := submit(t, c, "--reservation=resvA", "-N2", "--wrap", "sleep 300")
	out := submit(t, c, "-N3", "--wrap", "sleep 300")
	c.WaitJob(t, jobID(t, in), states.JobRunning)
	waitFor(t, c, "job kept off the reserved nodes waits for them", func() bool {
		o, _, _ := c.Run(t, "squeue", "-h", "-j", out, "-o", "%R")
		return o == "(ReqNodeNotAvail, May be reserved for other job)\n"
	})
	o, _, _ := c.Run(t, "squeue", "-o", "%.5i %.8v %.8T %R")
	if want := "JOBID RESERVAT    STATE NODELIST(REASON)\n" +
		pad(out, 5) + "   (null)  PENDING (ReqNodeNotAvail, May be reserved for other job)\n" +
		pad(in, 5) + "    resvA  RUNNING n[1-2]\n"; o != want {
		t.Errorf("squeue:\n%s\nwant\n%s", o, want)
	}
	if o, _, _ := c.Run(t, "scontrol", "show", "job", out); !strings.Contains(o, " Reason=ReqNodeNotAvail,_May_be_reserved_for_other_job ") {
		t.Errorf("scontrol show job %s:\n%s", out, o)
	}
	step("scontrol delete reservation=resvA", "", "delete_reservation reservation=resvA: Requested reservation is in use\n", 1)
	step("scontrol update reservation=resvA duration=120", "Reservation updated.\n", "", 0)

	// Acknowledged, so it survives a crash of the controller.
	c.KillController(t)
	c.RestartController(t)
	step("scontrol show reservation resvA", strings.Replace(show, "Duration=01:00:00", "Duration=02:00:00", 1), "", 0)

	c.Run(t, "scancel", in, out)
	waitFor(t, c, "jobs gone from the reservation", func() bool {
		_, _, rc := c.Run(t, "scontrol", "delete", "reservation=resvA")
		return rc == 0
	})
	step("scontrol show reservation", "No reservations in the system\n", "", 0)
	step("sinfo -T", "No reservations in the system\n", "", 0)
	// Accounting keeps the reservation a job ran in (sacct's Reservation column).
	if o, e, _ := c.Run(t, "sacct", "-X", "-n", "-P", "-o", "jobid,reservation", "-j", in+","+out); o != in+"|resvA\n"+out+"|\n" {
		t.Errorf("sacct Reservation: %q %s", o, e)
	}
}

// submit runs sbatch --parsable with args and returns the job id.
func submit(t *testing.T, c *cluster.Cluster, args ...string) string {
	t.Helper()
	o, e, rc := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
	if rc != 0 {
		t.Fatalf("sbatch %v: exit %d: %s", args, rc, e)
	}
	return strings.TrimSpace(o)
}

// waitFor polls cond, a bounded number of times, until it holds.
func waitFor(t *testing.T, c *cluster.Cluster, what string, cond func() bool) {
	t.Helper()
	for range 300 {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.Fatalf(t, "still not so after 30 s: %s", what)
}

// pad right-aligns s in a field of width n, as squeue's %.Ni does.
func pad(s string, n int) string {
	return strings.Repeat(" ", max(n-len(s), 0)) + s
}

// jobID is s as a job id.
func jobID(t *testing.T, s string) uint32 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		t.Fatalf("job id %q: %v", s, err)
	}
	return uint32(n)
}
