package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestPrintOptions compares squeue -v's options block with the reference's, recorded from
// Slurm 22.05's squeue with the same command line and environment.
func TestPrintOptions(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   string
		env    map[string]string
	}{
		{"verbose_vv", "-vv -o %i%T -u root -t R,pd,CG -p debug,x -j 1,2_3 --sort=i,-P -n ab,cd -r -a -L lic -R res -i 5 -P --local", nil},
		{"verbose_env", "-v -s 1.0", map[string]string{
			"SQUEUE_FORMAT": "%i", "SQUEUE_SORT": "u", "SQUEUE_STATES": "R", "SQUEUE_USERS": "root",
			"SQUEUE_NAMES": "x", "SQUEUE_PARTITION": "debug", "SQUEUE_LICENSES": "l"}},
		{"verbose_steps", "-v --start -vv -s 3.1,4_2.batch", nil},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			var out bytes.Buffer
			w := bufio.NewWriter(&out)
			p, code := parseArgs(append([]string{"squeue"}, strings.Fields(tc.args)...), getenv, w, io.Discard)
			if code >= 0 {
				t.Fatalf("parseArgs exit %d", code)
			}
			printOptions(w, p)
			w.Flush()
			want, err := os.ReadFile("testdata/" + tc.golden + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
			}
		})
	}
}
