package e2e_test

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestMailProg: slurmctld runs MailProg for the events --mail-type names, with Slurm's
// arguments (-s "<subject>" <user>) and environment, as Slurm's test1.48 checks them (the
// lines below follow what the reference's MailProg received there and for the same
// commands): BEGIN, END, FAIL with the state and exit code, REQUEUE, a pending job
// cancelled, and an array's summaries (BEGIN from its pending record, END after its last
// task, Mixed exit codes).
func TestMailProg(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	out := filepath.Join(dir, "mail.out")
	prog := filepath.Join(dir, "mail.sh")
	body := fmt.Sprintf("#!/bin/bash\necho \"$@ SLURM_JOB_ID=$SLURM_JOB_ID SLURM_JOB_MAIL_TYPE=$SLURM_JOB_MAIL_TYPE "+
		"SLURM_JOB_QUEUED_TIME=$SLURM_JOB_QUEUED_TIME SLURM_JOB_RUN_TIME=$SLURM_JOB_RUN_TIME "+
		"SLURM_JOB_EXIT_CODE_MAX=$SLURM_JOB_EXIT_CODE_MAX SLURM_JOB_STATE=$SLURM_JOB_STATE\" >> %s\n", out)
	if err := os.WriteFile(prog, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, InProcess: true, ExtraConf: "MailProg=" + prog + "\n"})
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	name := u.Username
	times := regexp.MustCompile(`\d\d:\d\d:\d\d`)
	// lines waits for the mail lines naming job id (times replaced by T) until there are n.
	lines := func(id uint32, n int) []string {
		t.Helper()
		key := fmt.Sprintf("SLURM_JOB_ID=%d ", id)
		deadline := time.Now().Add(30 * time.Second)
		for {
			b, _ := os.ReadFile(out)
			var got []string
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, key) {
					got = append(got, times.ReplaceAllString(l, "T"))
				}
			}
			if len(got) >= n || time.Now().After(deadline) {
				slices.Sort(got)
				return got
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: MailProg got\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}

	id := submit(t, c, "-J", "m1", "--mail-type=ALL", "-o", "/dev/null", "--wrap", "true")
	c.WaitJob(t, id, states.JobComplete)
	check("--mail-type=ALL", lines(id, 2), []string{
		fmt.Sprintf("-s Slurm Job_id=%d Name=m1 Began, Queued time T %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Began SLURM_JOB_QUEUED_TIME=T SLURM_JOB_RUN_TIME= SLURM_JOB_EXIT_CODE_MAX= SLURM_JOB_STATE=RUNNING", id, name, id),
		fmt.Sprintf("-s Slurm Job_id=%d Name=m1 Ended, Run time T, COMPLETED, ExitCode 0 %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Ended SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME=T SLURM_JOB_EXIT_CODE_MAX=0 SLURM_JOB_STATE=COMPLETED", id, name, id),
	})

	id = submit(t, c, "-J", "m2", "--mail-type=END,FAIL", "--mail-user=someone@example.org", "-o", "/dev/null", "--wrap", "exit 3")
	c.WaitJob(t, id, states.JobFailed)
	check("a failed job", lines(id, 1), []string{
		fmt.Sprintf("-s Slurm Job_id=%d Name=m2 Failed, Run time T, FAILED, ExitCode 3 someone@example.org SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Failed SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME=T SLURM_JOB_EXIT_CODE_MAX=3 SLURM_JOB_STATE=FAILED", id, id),
	})

	id = submit(t, c, "-J", "m3", "--mail-type=REQUEUE", "--requeue", "-o", "/dev/null", "--wrap", "sleep 60")
	c.WaitJob(t, id, states.JobRunning)
	if _, errOut, code := c.Run(t, "scontrol", "requeue", fmt.Sprint(id)); code != 0 {
		t.Fatalf("scontrol requeue: %d %s", code, errOut)
	}
	check("a requeued job", lines(id, 1), []string{
		fmt.Sprintf("-s Slurm Job_id=%d Name=m3 Requeued, Run time T %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Requeued SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME=T SLURM_JOB_EXIT_CODE_MAX= SLURM_JOB_STATE=PENDING", id, name, id),
	})
	c.Run(t, "scancel", fmt.Sprint(id))

	// A job cancelled while it waits still ends, after no run time.
	id = submit(t, c, "-J", "m5", "-H", "--mail-type=END", "-o", "/dev/null", "--wrap", "true")
	c.Run(t, "scancel", fmt.Sprint(id))
	check("a pending job cancelled", lines(id, 1), []string{
		fmt.Sprintf("-s Slurm Job_id=%d Name=m5 Ended, Run time T, CANCELLED, ExitCode 0 %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Ended SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME=T SLURM_JOB_EXIT_CODE_MAX=0 SLURM_JOB_STATE=CANCELLED", id, name, id),
	})

	id = submit(t, c, "-J", "m4", "--array=1-3", "--mail-type=BEGIN,END", "-o", "/dev/null", "--wrap", "exit $((SLURM_ARRAY_TASK_ID-1))")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if jobs := c.Jobs(t); !slices.ContainsFunc(jobs, func(j wire.JobInfo) bool {
			return j.ArrayJobID == id && !states.JobState(j.State).IsFinished()
		}) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	check("an array", lines(id, 2), []string{
		fmt.Sprintf("-s Slurm Array Summary Job_id=%d_* (%d) Name=m4 Began %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Began SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME= SLURM_JOB_EXIT_CODE_MAX= SLURM_JOB_STATE=PENDING", id, id, name, id),
		fmt.Sprintf("-s Slurm Array Summary Job_id=%d_* (%d) Name=m4 Ended, Mixed, ExitCode [0-2] %s SLURM_JOB_ID=%d SLURM_JOB_MAIL_TYPE=Ended SLURM_JOB_QUEUED_TIME= SLURM_JOB_RUN_TIME=T SLURM_JOB_EXIT_CODE_MAX=2 SLURM_JOB_STATE=FAILED", id, id, name, id),
	})
}

// TestScontrolUpdateMail: scontrol update job MailType= and MailUser= change what scontrol
// show job says (an empty MailUser is the job's user again, MailType=none hides the line,
// unknown names in a list are passed over, a list of none is refused), as the reference
// answered the same commands (Slurm's test2.27).
func TestScontrolUpdateMail(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, InProcess: true})
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-H", "--wrap", "hostname")
	if code != 0 {
		t.Fatalf("sbatch: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	for _, tc := range []struct {
		args, mail, stderr string
		code               int
	}{
		{"mailuser=blah mailtype=begin", "MailUser=blah MailType=BEGIN", "", 0},
		{"mailuser= mailtype=begin,end", "MailUser=" + u.Username + " MailType=BEGIN,END", "", 0},
		{"mailtype=none", "", "", 0},
		{"mailtype=bogus", "", "Invalid MailType: bogus\n", 1},
		{"mailtype=ALL,ARRAY_TASKS", "MailUser=" + u.Username + " MailType=ARRAY_TASKS,INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT", "", 0},
		{"mailtype=FAIL,TIME_LIMIT,TIME_LIMIT_90", "MailUser=" + u.Username + " MailType=FAIL,TIME_LIMIT_90,TIME_LIMIT", "", 0},
		{"mailt=begin,x mailu=y", "MailUser=y MailType=BEGIN", "", 0},
		{"mail=x", "MailUser=y MailType=BEGIN", "Update of this parameter is not supported: mail=x\nRequest aborted\n", 1},
	} {
		_, errOut, code := c.Run(t, "scontrol", append([]string{"update", "job", id}, strings.Fields(tc.args)...)...)
		if code != tc.code || errOut != tc.stderr {
			t.Errorf("scontrol update %s: exit %d, stderr %q; want %d, %q", tc.args, code, errOut, tc.code, tc.stderr)
		}
		show, _, _ := c.Run(t, "scontrol", "show", "job", id)
		mail := ""
		for _, l := range strings.Split(show, "\n") {
			if strings.Contains(l, "MailUser=") {
				mail = strings.TrimSpace(l)
			}
		}
		if mail != tc.mail {
			t.Errorf("after %s: %q, want %q", tc.args, mail, tc.mail)
		}
	}
}
