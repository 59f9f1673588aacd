// Command normcmd is record.sh's normaliser: it reads squeue's or sinfo's --json/--yaml
// output on stdin and writes what the goldens store, with the same code the test applies
// to Orbit's output. Usage: normcmd [-jobs ID,ID,...] [-yaml].
package main

import (
	"flag"
	"io"
	"os"
	"strings"

	orbitjson "github.com/orbit-hpc/orbit/testsuite/json"
)

func main() {
	ids := flag.String("jobs", "", "keep only the jobs with these ids (comma-separated)")
	yaml := flag.Bool("yaml", false, "the input is YAML")
	flag.Parse()
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	s := string(b)
	if *ids != "" {
		s = orbitjson.KeepJobs(s, strings.Split(*ids, ","), *yaml)
	}
	os.Stdout.WriteString(orbitjson.Normalise(s))
}
