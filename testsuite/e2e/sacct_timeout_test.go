package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSacct_TimeoutJob runs a batch job into its one-minute time limit and reads it back
// from accounting as Slurm 22.05 records it: the job TIMEOUT with ExitCode 0:0 (slurmctld
// writes the job's end when it enforces the limit, before the script has died), its batch
// step CANCELLED with the signal that killed the script (0:15). It then checks the same
// job through --json, a state window (-s TO), -B with AccountingStoreFlags=job_script, and
// a job purged from memory (MinJobAge) so that the answer comes from the store.
func TestSacct_TimeoutJob(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 2,
		ExtraConf: "AccountingStorageType=accounting_storage/orbit\nAccountingStoreFlags=job_script\nKillWait=2"})
	testbin.Path(t, "sacct")
	script := writeScript(t, c, "e2e_timeout.sh", "#!/bin/sh\nsleep 300\n")
	id := submit(t, c, "-J", "e2e_timeout", "-t", "1", "-o", "timeout.out", script)
	jid := fmt.Sprint(id)

	sacct := func(args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "sacct", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("sacct %q: exit %d, stderr %q", args, code, errOut)
		}
		return out
	}
	want := jid + "|e2e_timeout|TIMEOUT|0:0\n" + jid + ".batch|batch|CANCELLED|0:15\n"
	got := ""
	// The limit is one minute; the bound only guards against a hang.
	for deadline := time.Now().Add(4 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		got = sacct("-j", jid, "-n", "-P", "-o", "jobid,jobname,state,exitcode")
		if got == want {
			break
		}
	}
	if got != want {
		t.Fatalf("sacct after the time limit:\n%s\nwant:\n%s", got, want)
	}
	endedBy := time.Now() // the job's end (whole seconds) is at or before this instant
	// slurmstepd's line in the job's output says why it was ended.
	waitFor(t, "slurmstepd's TIME LIMIT line", func() bool {
		b, _ := os.ReadFile(filepath.Join(c.WorkDir, "timeout.out"))
		return cancelledLine(id, " DUE TO TIME LIMIT").Match(b)
	})

	check := func(t *testing.T) {
		t.Run("json", func(t *testing.T) {
			var doc struct {
				Errors []any `json:"errors"`
				Jobs   []struct {
					JobID int `json:"job_id"`
					State struct {
						Current string `json:"current"`
					} `json:"state"`
					ExitCode struct {
						Status string `json:"status"`
					} `json:"exit_code"`
					Time struct {
						Limit int `json:"limit"`
					} `json:"time"`
					Steps []struct {
						State    string `json:"state"`
						ExitCode struct {
							Status string `json:"status"`
							Signal struct {
								ID   int    `json:"signal_id"`
								Name string `json:"name"`
							} `json:"signal"`
						} `json:"exit_code"`
						Step struct {
							ID any `json:"id"`
						} `json:"step"`
					} `json:"steps"`
				} `json:"jobs"`
			}
			out := sacct("-j", jid, "--json")
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("--json is not JSON: %v\n%s", err, out)
			}
			if len(doc.Jobs) != 1 || len(doc.Errors) != 0 {
				t.Fatalf("--json: %d jobs, %d errors\n%s", len(doc.Jobs), len(doc.Errors), out)
			}
			j := doc.Jobs[0]
			if j.JobID != int(id) || j.State.Current != "TIMEOUT" || j.ExitCode.Status != "SUCCESS" || j.Time.Limit != 1 {
				t.Errorf("--json job: %+v", j)
			}
			if len(j.Steps) != 1 || j.Steps[0].Step.ID != "batch" || j.Steps[0].State != "CANCELLED" ||
				j.Steps[0].ExitCode.Status != "SIGNALED" || j.Steps[0].ExitCode.Signal.ID != 15 ||
				j.Steps[0].ExitCode.Signal.Name != "Terminated" {
				t.Errorf("--json steps: %+v", j.Steps)
			}
			if !strings.Contains(out, `"type": "openapi\/dbv0.0.38"`) {
				t.Errorf("--json meta:\n%s", out[:min(len(out), 300)])
			}
		})
		t.Run("state window", func(t *testing.T) {
			// With -s the window defaults to the instant now: a job that ended before it
			// is not there; a window around its end finds it. Times are whole seconds, so
			// "now" must first be a later second than the job's end.
			time.Sleep(time.Until(endedBy.Truncate(time.Second).Add(time.Second)))
			if out := sacct("-s", "TO", "-X", "-n", "-P", "-o", "jobid"); strings.Contains(out, jid) {
				t.Errorf("sacct -s TO (now) = %q", out)
			}
			out := sacct("-s", "TO", "-S", "now-1hour", "-E", "now", "-X", "-n", "-P", "-o", "jobid,state")
			if out != jid+"|TIMEOUT\n" {
				t.Errorf("sacct -s TO -S now-1hour = %q", out)
			}
			if out := sacct("-s", "CD", "-S", "now-1hour", "-E", "now", "-X", "-n", "-o", "jobid"); out != "" {
				t.Errorf("sacct -s CD = %q", out)
			}
		})
		t.Run("filters", func(t *testing.T) {
			cpus := strings.TrimSpace(sacct("-j", jid, "-X", "-n", "-P", "-o", "alloccpus"))
			var n int
			if _, err := fmt.Sscan(cpus, &n); err != nil || n < 1 {
				t.Fatalf("AllocCPUS %q", cpus)
			}
			more := fmt.Sprint(n + 1)
			for _, args := range [][]string{{"-k", "1"}, {"-k", "1", "-K", "5"}, {"-i", "1"}, {"-I", cpus}, {"-I", "1-" + cpus}, {"-q", "normal"}} {
				out := sacct(append([]string{"-j", jid, "-X", "-n", "-P", "-o", "jobid"}, args...)...)
				if out != jid+"\n" {
					t.Errorf("sacct %q = %q", args, out)
				}
			}
			for _, args := range [][]string{{"-k", "2"}, {"-i", "2-3"}, {"-I", more}, {"-A", "nosuchaccount"}, {"-W", "nokey"}} {
				if out := sacct(append([]string{"-j", jid, "-X", "-n", "-P", "-o", "jobid"}, args...)...); out != "" {
					t.Errorf("sacct %q = %q", args, out)
				}
			}
		})
		t.Run("batch script", func(t *testing.T) {
			body, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			want := "Batch Script for " + jid + "\n" + strings.Repeat("-", 80) + "\n" + string(body) + "\n"
			if out := sacct("-B", "-j", jid); out != want {
				t.Errorf("sacct -B = %q, want %q", out, want)
			}
		})
	}
	t.Run("live", check)
	// MinJobAge=2: the record leaves memory, and sacct reads it from the store.
	deadline := time.Now().Add(time.Minute)
	for len(c.Jobs(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	if n := len(c.Jobs(t)); n != 0 {
		t.Fatalf("%d jobs still in memory after MinJobAge", n)
	}
	if got := sacct("-j", jid, "-n", "-P", "-o", "jobid,jobname,state,exitcode"); got != want {
		t.Errorf("purged: sacct =\n%s\nwant:\n%s", got, want)
	}
	t.Run("purged", check)
}
