package main

import (
	"fmt"
	"strings"

	"github.com/orbit-hpc/orbit/compat/version"
)

const usage = `Usage: slurmctld [OPTIONS]
  -c         Do not recover state from last checkpoint.
  -D         Run daemon in foreground, with logging copied to stdout.
  -f file    Use specified file for slurmctld configuration.
  -h, --help Print this help message.
  -i         Ignore errors found while reading in state files on startup.
  -L logfile Log messages to the specified file.
  -R         Recover full state from last checkpoint.
  -s         Change working directory to SlurmctldLogFile/StateSaveLocation.
  -t         Check the configuration (slurm.conf and gres.conf, topology.conf,
             cgroup.conf beside it), print every error and exit: 0 when valid.
  -v         Verbose mode. Multiple -v's increase verbosity.
  -V         Print version information and exit.
`

type options struct {
	confPath   string
	logFile    string
	help       bool
	version    bool
	test       bool
	foreground bool
	clearState bool
	verbose    int
}

func versionLine() string { return version.String() }

// parseOptions reads slurmctld's options: single-letter flags may be grouped ("-Dvv"), -f and
// -L take the next argument or the rest of their word ("-fFILE").
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
			case 'D':
				o.foreground = true
			case 'c':
				o.clearState = true
			case 'v':
				o.verbose++
			case 'i', 'R', 's':
				// Accepted for compatibility: Orbit always recovers what it can.
			case 'f', 'L':
				var v string
				if j+1 < len(a) {
					v = a[j+1:]
				} else if i+1 < len(args) {
					i++
					v = args[i]
				} else {
					return o, fmt.Errorf("option requires an argument -- '%c'", a[j])
				}
				if a[j] == 'f' {
					o.confPath = v
				} else {
					o.logFile = v
				}
				j = len(a)
			default:
				return o, fmt.Errorf("invalid option -- '%c'", a[j])
			}
		}
	}
	return o, nil
}
