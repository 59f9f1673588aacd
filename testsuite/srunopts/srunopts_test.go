package srunopts_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// queued are srun's notes on an allocation that was not started at once: they depend on
// other jobs, not on the case.
var queued = regexp.MustCompile(`(?m)^srun: job \d+ (queued and waiting for resources|has been allocated resources)\n`)

// anyOrder are the cases whose output lines come from several places in either order: srun's
// report of the task's exit and slurmstepd's lines on the task's stderr (Slurm's srun prints
// the exit as its message arrives; Orbit's when the step has ended), or the labelled lines of
// several tasks. Their lines are compared as sets.
var anyOrder = map[string]bool{"task_prolog": true, "task_prolog_fails": true, "mpi_pmi2_env": true}

// definedOnly says a case (named defined_*, run with -v) compares only the list of defined
// options in stderr (refcase.DefinedOptionsBlock), with stdout and the exit status.
func definedOnly(name string) bool { return strings.HasPrefix(name, "defined_") }

func sortedLines(s string) string {
	l := strings.SplitAfter(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "")
}

// TestSrunOptions_MatchesReference runs every case of cases.txt with Orbit's srun on a
// one-node cluster shaped like the reference's and compares stdout, stderr and the exit
// status with the recording.
func TestSrunOptions_MatchesReference(t *testing.T) {
	// Orbit's scontrol and squeue first on the tasks' PATH, for job_info's script.
	path := []string{"PATH=" + filepath.Dir(testbin.Path(t, "srun")) + ":" + os.Getenv("PATH")}
	testbin.Path(t, "scontrol")
	testbin.Path(t, "squeue")
	c := cluster.Start(t, cluster.Options{Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000})
	for _, f := range refcase.ReadTable(t, "cases.txt", 2) {
		name, args := f[0], refcase.ShellWords(f[1])
		t.Run(name, func(t *testing.T) {
			out, errOut, code := refcase.Run(t, c, "srun", "SRUN_", path, args...)
			errOut = queued.ReplaceAllString(errOut, "")
			if want := strings.TrimSpace(refcase.ReadGolden(t, name+".rc")); strconv.Itoa(code) != want {
				t.Errorf("exit %d, reference %s (stderr %q)", code, want, errOut)
			}
			want := refcase.ReadGolden(t, name+".out")
			if anyOrder[name] {
				out, want = sortedLines(out), sortedLines(want)
			}
			if out != want {
				t.Errorf("stdout:\n%s\nreference:\n%s", out, want)
			}
			want = queued.ReplaceAllString(refcase.ReadGolden(t, name+".err"), "")
			if definedOnly(name) {
				errOut, want = refcase.DefinedOptionsBlock(errOut), refcase.DefinedOptionsBlock(want)
				if want == "" {
					t.Fatal("the recording has no list of defined options")
				}
			}
			if anyOrder[name] {
				errOut, want = sortedLines(errOut), sortedLines(want)
			}
			if errOut != want {
				t.Errorf("stderr:\n%s\nreference:\n%s", errOut, want)
			}
		})
	}
}
