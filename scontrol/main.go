// Command scontrol is Orbit's `scontrol`: Slurm's administration tool, with the same command
// line, output, error texts and exit codes. It carries `show job|node|partition|reservation|
// config|hostnames|hostlist|hostlistsorted` (with -o, -d, -a), `update` of jobs, nodes,
// partitions and reservations, `create` and `delete` of partitions and reservations,
// hold/uhold/release/requeue/requeuehold/suspend/resume/top, ping, reconfigure,
// shutdown, write batch_script, help, version, exit and quit, also typed at the interactive "scontrol: " prompt;
// every other command or entity is refused by name, never faked.
//
// main only parses options and dispatches; each command family lives in its own file
// (show_hostlist.go, later show_job.go, ...). scontrol must not import daemon code.
package main

import (
	"bufio"

	"fmt"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"io"
	"os"
)

// cli holds one run's state: Slurm's global flags and the exit code commands set.
type cli struct {
	prog     string // argv[0], which getopt's messages start with
	stdout   *bufio.Writer
	stderr   io.Writer
	exitCode int
	// quiet is Slurm's quiet_flag: 1 after -Q (some errors are then not printed), -1 after -v.
	quiet     int
	verbosity int
	// exitFlag is set by exit/quit to end interactive mode.
	exitFlag bool
	// Display flags: -o/oneliner, -d/details, -a/all.
	oneLiner bool
	details  bool
	all      bool
	// cl is the controller client, loaded on first use (client.go).
	cl *cmdclient.Client
	// lastErr is the text of the last failed job request (Slurm's errno for slurm_perror).
	lastErr string
}

func main() {
	c := &cli{prog: os.Args[0], stdout: bufio.NewWriterSize(os.Stdout, 64<<10), stderr: os.Stderr}
	code := c.run(os.Args[1:])
	c.stdout.Flush()
	os.Exit(code)
}

// run executes one invocation and returns its exit code.
func (c *cli) run(args []string) int {
	if v, ok := os.LookupEnv("SLURM_CLUSTERS"); ok {
		c.stdout.Flush()
		cmdclient.ClusterUnreachable(c.stderr, "scontrol", v, true)
		return 1
	}
	cmd, stop := c.parseOptions(args)
	if stop >= 0 {
		return stop
	}
	if len(cmd) == 0 {
		c.interactive(os.Stdin)
		return c.exitCode
	}
	c.processCommand(cmd)
	return c.exitCode
}

// errorf prints a line the way Slurm's error() does for scontrol.
func (c *cli) errorf(format string, a ...any) {
	c.stdout.Flush()
	fmt.Fprintf(c.stderr, "scontrol: error: "+format+"\n", a...)
}

// fatalf prints a line the way Slurm's fatal() does and exits 1.
func (c *cli) fatalf(format string, a ...any) {
	c.stdout.Flush()
	fmt.Fprintf(c.stderr, "scontrol: fatal: "+format+"\n", a...)
	os.Exit(1)
}

// clusterRefused is Slurm's answer to a cluster name (-M, or the cluster command): no
// database can name it, so scontrol says so; the caller exits 1, even from the prompt.
func (c *cli) clusterRefused(names string) {
	c.stdout.Flush()
	cmdclient.ClusterUnreachable(c.stderr, "scontrol", names, false)
}

// eprintf writes raw text to stderr (Slurm's fprintf(stderr, ...)).
func (c *cli) eprintf(format string, a ...any) {
	c.stdout.Flush()
	fmt.Fprintf(c.stderr, format, a...)
}
