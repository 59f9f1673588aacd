// Command recorder runs the scenario against the live reference Slurm and stores its
// normalised captures as the goldens the Go test compares Orbit with (record.sh runs it; see
// the scenario package). It never runs the scenario's orbit-only lines, cancels exactly the
// jobs the scenario submitted when it ends, and refuses a recording that other people's jobs
// on the shared node may have disturbed (it then asks to be run again).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/testsuite/scenario"
)

func main() {
	bin := flag.String("bin", "/usr/bin", "directory of the reference's commands")
	script := flag.String("scenario", "testdata/scenario.txt", "the scenario")
	out := flag.String("out", "testdata/reference", "where the goldens go")
	flag.Parse()
	if err := record(*bin, *script, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recorder:", err)
		if _, ok := err.(retryable); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// retryable is a failure that a later attempt may not have: the shared reference was busy.
type retryable struct{ error }

func record(bin, script, out string) error {
	conf := os.Getenv("SLURM_CONF")
	if conf == "" {
		return fmt.Errorf("SLURM_CONF must name the reference's slurm.conf")
	}
	text, err := os.ReadFile(script)
	if err != nil {
		return err
	}
	steps, err := scenario.Parse(string(text))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "scn-rec-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work) // our own MkdirTemp directory
	target := scenario.Target{BinDir: bin, Conf: conf, WorkDir: work,
		Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "recorder: "+f+"\n", a...) }}
	// Other people's running jobs move the node's allocation (scontrol show node): look
	// before the run and after every capture.
	disturbed := foreign(bin, conf)
	target.AfterCapture = func(scenario.Capture) {
		if disturbed == "" {
			disturbed = foreign(bin, conf)
		}
	}
	caps, ids, runErr := scenario.Run(context.Background(), target, steps)
	cancelAll(bin, conf, ids)
	if runErr != nil {
		return runErr
	}
	if disturbed != "" {
		return retryable{fmt.Errorf("other people's jobs ran on the shared node (%s), which moves its allocation; run again when it is idle", disturbed)}
	}
	// The test numbers Orbit's jobs from 10^(digits-1) so that ids print as wide as the
	// reference's; a recording whose ids cross a power of ten cannot be matched that way.
	digits := 0
	for _, id := range ids {
		if digits == 0 {
			digits = len(id)
		} else if len(id) != digits {
			return retryable{fmt.Errorf("the reference's job ids %v crossed a power of ten; run again", ids)}
		}
	}
	u, err := user.Current()
	if err != nil {
		return err
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		return err
	}
	env := scenario.Env{WorkDir: work, User: u.Username, UID: u.Uid, Group: g.Name, GID: u.Gid}
	if err := scenario.WriteGoldens(out, caps, env); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "id-digits"), []byte(strconv.Itoa(digits)+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "recorder: %d captures in %s\n", len(caps), out)
	return nil
}

// foreign lists running jobs that are not the scenario's (named scn-*).
func foreign(bin, conf string) string {
	cmd := exec.Command(filepath.Join(bin, "squeue"), "-h", "-t", "R,CG,S", "-o", "%i %j")
	cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
	b, err := cmd.Output()
	if err != nil {
		return "squeue failed: " + err.Error()
	}
	var other []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(l); len(f) == 2 && !strings.HasPrefix(f[1], "scn-") {
			other = append(other, l)
		}
	}
	return strings.Join(other, ", ")
}

// cancelAll cancels exactly the jobs the scenario submitted.
func cancelAll(bin, conf string, ids map[string]string) {
	var list []string
	for _, id := range ids {
		list = append(list, id)
	}
	if len(list) == 0 {
		return
	}
	slices.Sort(list)
	cmd := exec.Command(filepath.Join(bin, "scancel"), list...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
	cmd.Run()
}
