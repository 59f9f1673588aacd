package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/getopt"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/userdb"
)

// longOptions is scontrol's getopt_long table ("adhM:FoQu:vV" and its long options), in
// Slurm's order (the order ambiguity messages list). Val is the short letter, or the long
// name for long-only options: what apply switches on.
var longOptions = []getopt.Option{
	{Long: "all", Short: 'a', Val: "a"},
	{Long: "cluster", Short: 'M', Arg: getopt.RequiredArg, Val: "M"},
	{Long: "clusters", Arg: getopt.RequiredArg, Val: "M"},
	{Long: "details", Short: 'd', Val: "d"},
	{Long: "federation", Val: "federation"},
	{Long: "future", Short: 'F', Val: "F"},
	{Long: "help", Short: 'h', Val: "h"},
	{Long: "hide", Val: "hide"},
	{Long: "local", Val: "local"},
	{Long: "oneliner", Short: 'o', Val: "o"},
	{Long: "quiet", Short: 'Q', Val: "Q"},
	{Long: "sibling", Val: "sibling"},
	{Long: "uid", Short: 'u', Arg: getopt.RequiredArg, Val: "u"},
	{Long: "usage", Val: "h"},
	{Long: "verbose", Short: 'v', Val: "v"},
	{Long: "version", Short: 'V', Val: "V"},
}

// parseOptions reads options the way GNU getopt_long does for scontrol (options may follow
// the command's words; "--" ends them; long names may be abbreviated) and acts on each in
// order, as Slurm does. It returns the command words, and an exit code >= 0 when the run is
// already over (-h, -V, a bad option).
func (c *cli) parseOptions(args []string) (cmd []string, exit int) {
	// Words are reported in order so that a "setdebugflags" command can stop option
	// parsing where it stands, leaving its "-flag" arguments as words.
	found, rest, err := getopt.Parse(append([]string{c.prog}, args...), longOptions, getopt.ReturnInOrder)
	var words []string
	for _, f := range found {
		if f.Option >= 0 {
			if code := c.apply(longOptions[f.Option].Val, f.Value); code >= 0 {
				return nil, code
			}
			continue
		}
		if w := f.Value; len(w) >= 8 && strings.EqualFold(w[:8], "setdebug") {
			return args[f.Argi-1:], -1
		}
		words = append(words, f.Value)
	}
	if err != nil {
		c.eprintf("%s\n", err)
		return nil, c.tryHelp()
	}
	return append(words, rest...), -1
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
	case "o":
		c.oneLiner = true
	case "d":
		c.details = true
	case "a":
		c.all = true
	case "M":
		c.clusterRefused(arg)
		return 1
	case "u":
		if !validUID(arg) {
			c.errorf("--uid=\"%s\" invalid", arg)
			return c.exitCode
		}
	}
	// -F, --hide, --local, --federation, --sibling change only how controller answers are
	// shown; Orbit has no FUTURE nodes, hidden partitions or federation to show.
	return -1
}

// validUID reports whether s names a user as Slurm's uid_from_string reads it.
func validUID(s string) bool {
	_, ok := userdb.UIDFromString(s)
	return ok
}

func (c *cli) printVersion() {
	c.stdout.WriteString(version.String() + "\n")
	if c.quiet == -1 {
		// Slurm 22.05's API version, SLURM_VERSION_NUMBER(38,0,0).
		c.stdout.WriteString("slurm_api_version: 2490368, 38.0.0\n")
	}
}
