package main

import (
	"os/user"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/version"
)

// longOption is one entry of scontrol's getopt_long table.
type longOption struct {
	name   string
	hasArg bool
	val    string // the short letter, or the long name for long-only options
}

// longOptions is scontrol's table, in Slurm's order (the order ambiguity messages list).
var longOptions = []longOption{
	{"all", false, "a"},
	{"cluster", true, "M"},
	{"clusters", true, "M"},
	{"details", false, "d"},
	{"federation", false, "federation"},
	{"future", false, "F"},
	{"help", false, "h"},
	{"hide", false, "hide"},
	{"local", false, "local"},
	{"oneliner", false, "o"},
	{"quiet", false, "Q"},
	{"sibling", false, "sibling"},
	{"uid", true, "u"},
	{"usage", false, "h"},
	{"verbose", false, "v"},
	{"version", false, "V"},
}

// shortOptions maps scontrol's short options ("adhM:FoQu:vV") to whether they take an argument.
var shortOptions = map[byte]bool{'a': false, 'd': false, 'h': false, 'M': true, 'F': false,
	'o': false, 'Q': false, 'u': true, 'v': false, 'V': false}

// parseOptions reads options the way GNU getopt_long does for scontrol (options may follow
// the command's words; "--" ends them; long names may be abbreviated) and acts on each at
// once, as Slurm does. It returns the command words, and an exit code >= 0 when the run is
// already over (-h, -V, a bad option).
func (c *cli) parseOptions(args []string) (cmd []string, exit int) {
	var words []string
	i := 0
	for i < len(args) {
		// Slurm stops parsing options at a "setdebugflags" command so "-flag" stays a word.
		if len(args[i]) >= 8 && strings.EqualFold(args[i][:8], "setdebug") {
			return args[i:], -1
		}
		a := args[i]
		if a == "--" {
			return append(words, args[i+1:]...), -1
		}
		if len(a) < 2 || a[0] != '-' {
			words = append(words, a)
			i++
			continue
		}
		i++
		if strings.HasPrefix(a, "--") {
			var code int
			if i, code = c.longOption(args, i, a[2:]); code >= 0 {
				return nil, code
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			ch := a[k]
			takesArg, known := shortOptions[ch]
			if !known {
				c.eprintf("%s: invalid option -- '%c'\n", c.prog, ch)
				return nil, c.tryHelp()
			}
			arg := ""
			if takesArg {
				if k+1 < len(a) {
					arg = a[k+1:]
				} else if i < len(args) {
					arg = args[i]
					i++
				} else {
					c.eprintf("%s: option requires an argument -- '%c'\n", c.prog, ch)
					return nil, c.tryHelp()
				}
			}
			if code := c.apply(string(ch), arg); code >= 0 {
				return nil, code
			}
			if takesArg {
				break
			}
		}
	}
	return words, -1
}

// longOption handles "--text" (text may hold "=value"); it returns the next index and an exit
// code >= 0 when the run is over.
func (c *cli) longOption(args []string, i int, text string) (int, int) {
	name, value, hasValue := strings.Cut(text, "=")
	var found *longOption
	var ambiguous []string
	for k := range longOptions {
		o := &longOptions[k]
		if o.name == name {
			found, ambiguous = o, nil
			break
		}
		if !strings.HasPrefix(o.name, name) {
			continue
		}
		if found == nil {
			found = o
		} else if found.hasArg != o.hasArg || found.val != o.val {
			if ambiguous == nil {
				ambiguous = []string{found.name}
			}
			ambiguous = append(ambiguous, o.name)
		}
	}
	if len(ambiguous) > 0 {
		c.eprintf("%s: option '--%s' is ambiguous; possibilities:", c.prog, text)
		for _, n := range ambiguous {
			c.eprintf(" '--%s'", n)
		}
		c.eprintf("\n")
		return i, c.tryHelp()
	}
	if found == nil {
		c.eprintf("%s: unrecognized option '--%s'\n", c.prog, text)
		return i, c.tryHelp()
	}
	if hasValue && !found.hasArg {
		c.eprintf("%s: option '--%s' doesn't allow an argument\n", c.prog, found.name)
		return i, c.tryHelp()
	}
	if found.hasArg && !hasValue {
		if i >= len(args) {
			c.eprintf("%s: option '--%s' requires an argument\n", c.prog, found.name)
			return i, c.tryHelp()
		}
		value = args[i]
		i++
	}
	return i, c.apply(found.val, value)
}

func (c *cli) tryHelp() int {
	c.eprintf("Try \"scontrol --help\" for more information\n")
	return 1
}

// apply acts on one option; it returns an exit code >= 0 when the run is over.
func (c *cli) apply(opt, arg string) int {
	switch opt {
	case "h":
		c.usage()
		return c.exitCode
	case "V":
		c.printVersion()
		return c.exitCode
	case "v":
		c.quiet = -1
		c.verbosity++
	case "Q":
		c.quiet = 1
	case "M":
		c.errorf("--cluster/-M (multi-cluster operation) is not supported by Orbit yet")
		return 1
	case "u":
		if !validUID(arg) {
			c.errorf("--uid=\"%s\" invalid", arg)
			return c.exitCode
		}
	}
	// -a, -d, -F, -o, --hide, --local, --federation, --sibling change only how controller
	// answers are shown; none of the commands Orbit's scontrol has yet reads them.
	return -1
}

// validUID reports whether s names a user, or is a user id (as C's strtol reads it: blanks
// and a sign allowed, 0 to INT_MAX) that exists, as Slurm's uid_from_string checks.
func validUID(s string) bool {
	if _, err := user.Lookup(s); err == nil {
		return true
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	n, err := strconv.ParseUint(t, 10, 31)
	if err != nil || t == "" || t[0] == '+' || (neg && n != 0) {
		return false
	}
	_, err = user.LookupId(strconv.FormatUint(n, 10))
	return err == nil
}

func (c *cli) printVersion() {
	c.stdout.WriteString(version.String() + "\n")
	if c.quiet == -1 {
		// Slurm 22.05's API version, SLURM_VERSION_NUMBER(38,0,0).
		c.stdout.WriteString("slurm_api_version: 2490368, 38.0.0\n")
	}
}
