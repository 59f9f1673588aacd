package main

import (
	"fmt"
	"strings"

	"github.com/orbit-hpc/orbit/compat/version"
)

const usage = `Usage: slurmctld [OPTIONS]
  -f file    Use specified file for slurmctld configuration.
  -h, --help Print this help message.
  -t         Check the configuration (slurm.conf and gres.conf, topology.conf,
             cgroup.conf beside it), print every error and exit: 0 when valid.
  -V         Print version information and exit.
`

type options struct {
	confPath string
	help     bool
	version  bool
	test     bool
}

func versionLine() string { return version.String() }

// parseOptions reads slurmctld's options: single-letter flags may be grouped ("-tf FILE"),
// -f takes the next argument or the rest of its word ("-fFILE").
func parseOptions(args []string) (options, error) {
	var o options
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--help":
			o.help = true
			continue
		case a == "--version":
			o.version = true
			continue
		case !strings.HasPrefix(a, "-") || a == "-":
			return o, fmt.Errorf("unexpected argument %q", a)
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'h':
				o.help = true
			case 'V':
				o.version = true
			case 't':
				o.test = true
			case 'f':
				if j+1 < len(a) {
					o.confPath = a[j+1:]
				} else if i+1 < len(args) {
					i++
					o.confPath = args[i]
				} else {
					return o, fmt.Errorf("option requires an argument -- 'f'")
				}
				j = len(a)
			default:
				return o, fmt.Errorf("invalid option -- '%c'", a[j])
			}
		}
	}
	return o, nil
}
