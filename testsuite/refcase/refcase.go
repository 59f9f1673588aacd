// Package refcase holds what the command-level differential tests share (testsuite/squeue,
// testsuite/scancel): reading cases.txt and the goldens recorded from the reference, running
// the command as the recording did, and the one normalisation of run times, dates and user
// names.
//
// Only tests import it.
package refcase

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// WaitBound guards every wait against hanging; it is never a performance expectation.
const WaitBound = 60 * time.Second

// Case is one line of cases.txt: a name, one NAME=value environment entry or "-", and the
// command's arguments.
type Case struct{ Name, Env, Args string }

// ReadCases reads a tab-separated cases file of name, environment and arguments.
func ReadCases(t *testing.T, path string) []Case {
	var out []Case
	for _, f := range ReadTable(t, path, 3) {
		out = append(out, Case{f[0], f[1], f[2]})
	}
	return out
}

// ReadTable reads a file of n tab-separated fields a line (the last takes the rest of the
// line), skipping blank lines and # comments; a line with fewer fields fails the test.
func ReadTable(t *testing.T, path string, n int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", n)
		if len(parts) != n {
			t.Fatalf("%s: bad line %q", path, line)
		}
		out = append(out, parts)
	}
	return out
}

// ShellWords splits a cases.txt argument string as record.sh's eval does for the quoting
// used there (double quotes, no escapes).
func ShellWords(s string) []string {
	var out []string
	var cur strings.Builder
	inQ, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQ, have = !inQ, true
		case r == ' ' && !inQ:
			if have {
				out = append(out, cur.String())
			}
			cur.Reset()
			have = false
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

var (
	// Run times ("0:01", "1:02:03") move between runs; time limits ("10:00") are normalised
	// the same way on both sides.
	timeRE = regexp.MustCompile(`\b\d+(:\d\d)+\b`)
	// The date line of -l and -i.
	dateRE = regexp.MustCompile(`(?m)^[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d \d{4}$`)
)

// Normalise removes what must differ between the reference and Orbit: run times, the date
// line and, when the test does not run as root (the reference recording does), the user
// name in right-aligned columns.
func Normalise(s, userName string) string {
	s = dateRE.ReplaceAllString(s, "DATE")
	s = timeRE.ReplaceAllString(s, "T")
	if userName != "root" {
		re := regexp.MustCompile(` *\b` + regexp.QuoteMeta(userName) + `\b`)
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			if len(m) < 5 {
				return "root"
			}
			return strings.Repeat(" ", len(m)-4) + "root"
		})
	}
	return s
}

// Run runs Orbit's command name (argv[0] as the reference saw it) against c with env added
// to an environment cleared of SLURM_* and of the command's own envPrefix variables, and
// returns its stdout, stderr and exit status.
func Run(t *testing.T, c *cluster.Cluster, name, envPrefix string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := osexec.Command(testbin.Path(t, name), args...)
	cmd.Args[0] = name
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, envPrefix) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, "SLURM_CONF="+c.ConfPath), env...)
	cmd.WaitDelay = time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(WaitBound, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	var ee *osexec.ExitError
	code := 0
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// ReadGolden reads testdata/name.
func ReadGolden(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Sbatch submits with sbatch --parsable and returns the job id.
func Sbatch(t *testing.T, c *cluster.Cluster, args ...string) uint32 {
	t.Helper()
	out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
	if code != 0 {
		t.Fatalf("sbatch %q: %d %s", args, code, errOut)
	}
	id, err := strconv.ParseUint(strings.TrimSpace(strings.Split(out, ";")[0]), 10, 32)
	if err != nil {
		t.Fatalf("sbatch printed %q", out)
	}
	return uint32(id)
}

// DefinedOptionsBlock returns the list of defined options sbatch, srun and salloc print on
// stderr at -v, from its "defined options" line to its "end of defined options" line, or ""
// when s holds none. The -v cases compare only this block: around it the commands print
// lines of their own (plugin loading, the allocation, the launch) with job ids and plugin
// names that other cases cover.
func DefinedOptionsBlock(s string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasSuffix(l, ": defined options\n") {
			in = true
		}
		if in {
			b.WriteString(l)
		}
		if in && strings.HasSuffix(l, ": end of defined options\n") {
			break
		}
	}
	return b.String()
}
