package sinfo

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// refCase is one line of cases.txt.
type refCase struct {
	name string
	env  []string
	args []string
}

func readCases(t *testing.T) []refCase {
	t.Helper()
	f, err := os.Open("cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 {
			t.Fatalf("cases.txt: bad line %q", line)
		}
		c := refCase{name: fields[0]}
		if fields[1] != "-" {
			c.env = []string{fields[1]}
		}
		if c.args, err = shellWords(fields[2]); err != nil {
			t.Fatalf("cases.txt: %s: %v", c.name, err)
		}
		out = append(out, c)
	}
	return out
}

// shellWords splits the argument column as record.sh's `eval set --` does for the quoting
// cases.txt uses: blanks separate words; '...' and "..." quote (no escapes inside).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c quote", c)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// dateLine is the date sinfo prints first with -l or -i ("Mon Nov 23 04:02:04 2026"): the
// one thing that must differ between the recording and this run.
var dateLine = regexp.MustCompile(`(?m)^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}$`)

func normalise(s string) string { return dateLine.ReplaceAllString(s, "<date>") }

func golden(t *testing.T, name, ext string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+"."+ext))
	if err != nil {
		t.Fatalf("%v (run record.sh against the reference)", err)
	}
	return string(b)
}

// TestSinfo_MatchesReference runs every recorded command line against an Orbit cluster
// shaped like the reference and compares stdout, stderr and exit status.
func TestSinfo_MatchesReference(t *testing.T) {
	cases := readCases(t)
	alloc, err := strconv.Atoi(strings.TrimSpace(golden(t, "alloc", "txt")))
	if err != nil {
		t.Fatalf("testdata/alloc.txt: %v", err)
	}
	rc := startRefCluster(t)
	rc.allocate(t, alloc)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := rc.run(t, c.env, "sinfo", c.args...)
			wantOut, wantErr := golden(t, c.name, "out"), golden(t, c.name, "err")
			wantCode, _ := strconv.Atoi(strings.TrimSpace(golden(t, c.name, "rc")))
			if normalise(out) != normalise(wantOut) {
				t.Errorf("sinfo %q stdout:\n got:\n%s\nwant:\n%s", c.args, out, wantOut)
			}
			if errOut != wantErr {
				t.Errorf("sinfo %q stderr:\n got: %q\nwant: %q", c.args, errOut, wantErr)
			}
			if code != wantCode {
				t.Errorf("sinfo %q exit status %d, want %d", c.args, code, wantCode)
			}
		})
	}
}
