package hostlist_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
)

// goldenCase is one record of a golden file.
type goldenCase struct {
	header    string // "expr hostlist n[1-3]" or "cli show hostnames n1"
	exit      int
	stdout    []byte
	stdoutLen int    // set with stdoutSum when the golden keeps only a digest
	stdoutSum string // hex sha256
	stderr    []byte
}

// readGolden parses a golden file written by record.sh.
func readGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run record.sh against the reference Slurm)", err)
	}
	r := bufio.NewReader(bytes.NewReader(data))
	line := func() string {
		s, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: truncated golden file", path)
		}
		return strings.TrimSuffix(s, "\n")
	}
	block := func(n int) []byte {
		b := make([]byte, n+1)
		if _, err := io.ReadFull(r, b); err != nil || b[n] != '\n' {
			t.Fatalf("%s: bad block of %d bytes", path, n)
		}
		return b[:n]
	}
	var out []goldenCase
	for {
		if _, err := r.Peek(1); err != nil {
			return out
		}
		h := line()
		if !strings.HasPrefix(h, "### ") {
			t.Fatalf("%s: expected a '### ' header, got %q", path, h)
		}
		c := goldenCase{header: h[4:]}
		if _, err := fmt.Sscanf(line(), "exit %d", &c.exit); err != nil {
			t.Fatalf("%s: %s: bad exit line", path, c.header)
		}
		f := strings.Fields(line())
		switch {
		case len(f) == 2 && f[0] == "stdout":
			n, _ := strconv.Atoi(f[1])
			c.stdout = block(n)
		case len(f) == 3 && f[0] == "stdout-sha256":
			c.stdoutLen, _ = strconv.Atoi(f[1])
			c.stdoutSum = f[2]
		default:
			t.Fatalf("%s: %s: bad stdout line %q", path, c.header, f)
		}
		f = strings.Fields(line())
		if len(f) != 2 || f[0] != "stderr" {
			t.Fatalf("%s: %s: bad stderr line %q", path, c.header, f)
		}
		n, _ := strconv.Atoi(f[1])
		c.stderr = block(n)
		out = append(out, c)
	}
}

// unescape decodes the printf %b escapes the case files use (\n \t \r \v \f \\ \xHH; \c ends).
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case '\\':
			b.WriteByte('\\')
		case 'c':
			return b.String()
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// caseLines returns the case lines of a case file, as record.sh reads them.
func caseLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// makeFiles copies testdata/files to a fresh directory and adds the large generated inputs
// record.sh makes the same way.
func makeFiles(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	if err := os.CopyFS(dir, os.DirFS("testdata/files")); err != nil {
		t.Fatal(err)
	}
	ranges := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("a[")
		for i := 0; i < n; i++ {
			b.WriteString(strconv.Itoa(i%10) + ",")
		}
		b.WriteString("1]\n")
		return b.Bytes()
	}
	var big bytes.Buffer
	for i := 0; i < 150000; i++ {
		fmt.Fprintf(&big, "n%d\n", i)
	}
	for name, data := range map[string][]byte{
		"max-ranges.txt":      ranges(262143),
		"too-many-ranges.txt": ranges(262144),
		"big.txt":             big.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// invocation turns a golden header back into the environment, arguments and standard input
// record.sh used.
func invocation(header, dir string) (env, args []string, stdin string) {
	kind, rest, _ := strings.Cut(header, " ")
	if kind == "expr" {
		cmd, line, _ := strings.Cut(rest, " ")
		return nil, []string{"show", cmd, unescape(line)}, ""
	}
	args = []string{}
	for _, w := range strings.Split(rest, " ") {
		if w == "" {
			continue // bash's read collapses runs of spaces
		}
		w = strings.ReplaceAll(w, "@DIR@", dir)
		if len(args) == 0 && strings.HasPrefix(w, "ENV:") {
			env = append(env, unescape(w[4:]))
			continue
		}
		if len(args) == 0 && strings.HasPrefix(w, "STDIN:") {
			stdin = unescape(w[6:])
			continue
		}
		args = append(args, unescape(w))
	}
	return env, args, stdin
}

func TestScontrolHostlist_MatchesReference(t *testing.T) {
	bin := testbin.Path(t, "scontrol")
	dir := makeFiles(t)

	golden := map[string][]goldenCase{
		"expressions": readGolden(t, "testdata/golden/expressions.golden"),
		"cli":         readGolden(t, "testdata/golden/cli.golden"),
	}
	// Every case in the case files must have been recorded (a stale golden fails here).
	recorded := map[string]bool{}
	for _, cs := range golden {
		for _, c := range cs {
			recorded[c.header] = true
		}
	}
	for _, l := range caseLines(t, "testdata/expressions.txt") {
		for _, cmd := range []string{"hostnames", "hostlist", "hostlistsorted"} {
			if !recorded["expr "+cmd+" "+l] {
				t.Errorf("expressions.txt case %q (%s) has no golden record: run record.sh", l, cmd)
			}
		}
	}
	for _, l := range caseLines(t, "testdata/cli.txt") {
		if !recorded["cli "+l] {
			t.Errorf("cli.txt case %q has no golden record: run record.sh", l)
		}
	}

	for _, kind := range []string{"expressions", "cli"} {
		t.Run(kind, func(t *testing.T) {
			for _, c := range golden[kind] {
				t.Run(c.header, func(t *testing.T) {
					t.Parallel()
					check(t, bin, dir, c)
				})
			}
		})
	}
}

// check runs Orbit's scontrol on one golden case and compares what it prints.
func check(t *testing.T, bin, dir string, c goldenCase) {
	env, args, stdin := invocation(c.header, dir)
	// Orbit runs with argv[0] "scontrol", as record.sh ran the reference, so getopt's
	// messages (which start with argv[0]) agree byte for byte.
	cmd := &exec.Cmd{Path: bin, Args: append([]string{"scontrol"}, args...)}
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", c.header, err)
	}
	gotOut := bytes.ReplaceAll(stdout.Bytes(), []byte(dir), []byte("@DIR@"))
	gotErr := bytes.ReplaceAll(stderr.Bytes(), []byte(dir), []byte("@DIR@"))
	if code != c.exit {
		t.Errorf("%s: exit code %d, reference %d", c.header, code, c.exit)
	}
	if c.stdoutSum != "" {
		sum := sha256.Sum256(gotOut)
		if len(gotOut) != c.stdoutLen || hex.EncodeToString(sum[:]) != c.stdoutSum {
			t.Errorf("%s: stdout (%d bytes, starting %q) differs from the reference's %d bytes",
				c.header, len(gotOut), head(gotOut), c.stdoutLen)
		}
	} else if !bytes.Equal(gotOut, c.stdout) {
		t.Errorf("%s: stdout\n got %q\nwant %q", c.header, head(gotOut), head(c.stdout))
	}
	// stderr must match byte for byte too: no program-name difference to allow for, since
	// both programs run as "scontrol".
	if !bytes.Equal(gotErr, c.stderr) {
		t.Errorf("%s: stderr\n got %q\nwant %q", c.header, head(gotErr), head(c.stderr))
	}
}

func head(b []byte) []byte {
	if len(b) > 400 {
		return b[:400]
	}
	return b
}
