package main

import "strings"

// keywordIs is Slurm's `xstrncasecmp(tag, keyword, n) == 0`: tag matches when its first n
// bytes equal keyword's, case-insensitively, a string's end counting as a NUL byte. With
// n = max(len(tag), k) this accepts any abbreviation of at least k letters.
func keywordIs(tag, keyword string, n int) bool {
	for i := 0; i < n; i++ {
		var a, b byte
		if i < len(tag) {
			a = lower(tag[i])
		}
		if i < len(keyword) {
			b = lower(keyword[i])
		}
		if a != b {
			return false
		}
		if a == 0 {
			return true
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// abbrev matches tag against keyword when tag is at least min letters of it.
func abbrev(tag, keyword string, min int) bool { return keywordIs(tag, keyword, max(len(tag), min)) }

// keyword is one of scontrol's top-level commands: name, the letters it may be shortened to
// (fixed means Slurm compares exactly that many bytes whatever the tag's length), and what
// Orbit does with it (nil: not supported yet).
type keyword struct {
	names []string
	min   int
	fixed bool
	run   func(c *cli, argv []string)
}

// keywords lists scontrol's commands in the order Slurm tries them; the order decides which
// command an abbreviation means.
var keywords = []keyword{
	{names: []string{"abort"}, min: 5},
	{names: []string{"all"}, min: 2, run: (*cli).cmdAll},
	{names: []string{"cancel_reboot"}, min: 3, run: (*cli).cmdCancelReboot},
	{names: []string{"completing"}, min: 2},
	{names: []string{"cluster"}, min: 2, run: (*cli).cmdCluster},
	{names: []string{"create"}, min: 2, run: (*cli).cmdCreate},
	{names: []string{"details"}, min: 1, run: (*cli).cmdDetails},
	{names: []string{"errnumstr", "errnostr"}, min: 2},
	{names: []string{"exit"}, min: 2, run: (*cli).cmdExit},
	{names: []string{"gethost"}, min: 7},
	{names: []string{"hash_file"}, min: 15},
	{names: []string{"hash"}, min: 9},
	{names: []string{"help"}, min: 2, run: (*cli).cmdHelp},
	{names: []string{"hide"}, min: 2},
	{names: []string{"oneliner"}, min: 1, run: (*cli).cmdOneliner},
	{names: []string{"pidinfo"}, min: 3, run: (*cli).cmdPidInfo},
	{names: []string{"ping"}, min: 3, run: (*cli).cmdPing},
	{names: []string{"\\q"}, min: 2, fixed: true},
	{names: []string{"quiet"}, min: 4},
	{names: []string{"quit"}, min: 4, run: (*cli).cmdExit},
	{names: []string{"reboot_nodes"}, min: 3, run: (*cli).cmdReboot},
	{names: []string{"reconfigure"}, min: 3, run: (*cli).cmdReconfigure},
	{names: []string{"requeue"}, min: 3, run: (*cli).cmdRequeue},
	{names: []string{"requeuehold"}, min: 11, fixed: true, run: (*cli).cmdRequeueHold},
	{names: []string{"hold"}, min: 4, fixed: true, run: (*cli).cmdHold},
	{names: []string{"holdu", "uhold"}, min: 5, fixed: true, run: (*cli).cmdUHold},
	{names: []string{"release"}, min: 3, run: (*cli).cmdRelease},
	{names: []string{"suspend"}, min: 2, run: (*cli).cmdSuspend},
	{names: []string{"resume"}, min: 3, run: (*cli).cmdResume},
	{names: []string{"top"}, min: 3, run: (*cli).cmdTop},
	{names: []string{"token"}, min: 3, run: (*cli).cmdToken},
	{names: []string{"wait_job"}, min: 2, run: (*cli).cmdWaitJob},
	{names: []string{"setdebugflags"}, min: 9, run: (*cli).cmdSetDebugFlags},
	{names: []string{"fsdampeningfactor", "fairsharedampeningfactor"}, min: 3, run: (*cli).cmdFSDampening},
	{names: []string{"setdebug"}, min: 2, run: (*cli).cmdSetDebug},
	{names: []string{"schedloglevel"}, min: 3, run: (*cli).cmdSchedLogLevel},
	{names: []string{"show"}, min: 3, run: (*cli).cmdShow},
	{names: []string{"write"}, min: 5, run: (*cli).cmdWrite},
	{names: []string{"takeover"}, min: 8},
	{names: []string{"shutdown"}, min: 8, run: (*cli).cmdShutdown},
	{names: []string{"update"}, min: 1, run: (*cli).cmdUpdate},
	{names: []string{"delete"}, min: 1, run: (*cli).cmdDelete},
	{names: []string{"verbose"}, min: 4},
	{names: []string{"version"}, min: 4, run: (*cli).cmdVersion},
	{names: []string{"listpids"}, min: 1, run: (*cli).cmdListPids},
	{names: []string{"getent"}, min: 6, run: (*cli).cmdGetent},
	{names: []string{"notify"}, min: 1},
	{names: []string{"callerid"}, min: 3},
}

func (k *keyword) matches(tag string) bool {
	for _, n := range k.names {
		if k.fixed && keywordIs(tag, n, k.min) || !k.fixed && abbrev(tag, n, k.min) {
			return true
		}
	}
	return false
}

// processCommand runs one command (argv[0] is its keyword), as Slurm's _process_command.
func (c *cli) processCommand(argv []string) {
	tag := argv[0]
	for i := range keywords {
		k := &keywords[i]
		if !k.matches(tag) {
			continue
		}
		if k.run == nil {
			c.errorf("the %q command is not supported by Orbit yet", strings.ToLower(k.names[0]))
			c.exitCode = 1
			return
		}
		k.run(c, argv)
		return
	}
	c.exitCode = 1
	c.eprintf("invalid keyword: %s\n", tag)
}

func (c *cli) tooMany(tag, format string) {
	c.exitCode = 1
	c.eprintf(format, tag)
}

func (c *cli) cmdExit(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	c.exitFlag = true
}

// cmdCluster is "cluster [NAME]": with no name it goes back to the local cluster (where
// Orbit always is); a name fails as -M does.
func (c *cli) cmdCluster(argv []string) {
	if len(argv) >= 2 {
		c.clusterRefused(argv[1])
		c.exitCode, c.exitFlag = 1, true // Slurm's scontrol exits here, prompt or not
	}
}

func (c *cli) cmdHelp(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	c.usage()
}

func (c *cli) cmdVersion(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for %s keyword\n")
	}
	c.printVersion()
}

func (c *cli) cmdDetails(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	c.details = true
}

func (c *cli) cmdOneliner(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	c.oneLiner = true
}

func (c *cli) cmdAll(argv []string) {
	if len(argv) > 1 {
		c.tooMany(argv[0], "too many arguments for keyword:%s\n")
	}
	c.all = true
}
