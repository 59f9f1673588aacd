// Command salloc is Orbit's `salloc`: it requests an interactive allocation from slurmctld
// (the same MsgAllocateJob srun uses outside an allocation), waits for it with Slurm 22.05's
// messages ("Pending job allocation N", "job N queued and waiting for resources", "Granted
// job allocation N"), runs the given command (or the user's login shell) with the
// allocation's SLURM_* environment (env.go), releases the allocation when the command ends
// ("Relinquishing job allocation N") and exits with the command's exit code. srun run inside
// finds the allocation through SLURM_JOB_ID and runs its steps there.
//
// Signals follow Slurm's salloc (signals.go): while waiting, a signal withdraws the request
// ("Job aborted due to signal"); while the command runs, SIGHUP is passed to it and ends the
// session, and the other terminal signals give the allocation back, which ends the command.
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

// --uid and --gid name users and groups as Slurm reads them.
func init() { compatopts.Resolver = userdb.SlurmIDs{} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	codes := cmdclient.ReadExitCodes("salloc", os.Environ(), stderr, true)
	cwd, _ := os.Getwd()
	js, so, err := compatopts.ParseSallocOptions(append([]string{argv0()}, args...), os.Environ(), cwd, time.Now())
	if err == nil {
		if err = refuseUnhonoured(js); err != nil {
			for _, w := range js.Warnings { // -v's notes come before, as salloc checks later
				io.WriteString(stderr, w)
			}
		}
	}
	if err != nil {
		var perr *compatopts.Error
		if errors.As(err, &perr) {
			io.WriteString(stdout, perr.Stdout) // an option's help (--hint=help)
			io.WriteString(stderr, perr.Stderr)
			return perr.ExitCode
		}
		fmt.Fprintf(stderr, "salloc: error: %v\n", err)
		return codes.Error
	}
	switch js.Action {
	case jobspec.ActionVersion:
		fmt.Fprintln(stdout, version.String())
		return 0
	case jobspec.ActionHelp:
		io.WriteString(stdout, compatopts.HelpText("salloc", helpText, cmdclient.TaskPlugin()))
		return 0
	case jobspec.ActionUsage:
		io.WriteString(stdout, usageText)
		return 0
	}
	for _, w := range js.Warnings {
		io.WriteString(stderr, w)
	}
	dump := compatopts.DefinedOptions(js) // -v: once the options are checked
	io.WriteString(stderr, dump)
	argv := js.Argv
	if len(argv) == 0 && !so.NoShell {
		argv = []string{loginShell()}
	}
	c, err := cmdclient.Load("salloc", "")
	if err != nil {
		cmdclient.Fatal(stderr, "salloc", err)
	}
	if dump != "" && !js.ClustersSet { // Slurm loads them next to check GRES, which -M skips
		io.WriteString(stderr, cmdclient.SelectPluginLines("salloc", c.Conf))
	}
	for _, w := range cmdclient.SpecWarnings("salloc", js, c.Conf) {
		io.WriteString(stderr, w) // -S without AllowSpecResourcesUsage: dropped
	}
	if name := cmdclient.PlacementRefusal(js, c.Conf); name != "" {
		fmt.Fprintf(stderr, "salloc: error: %s is not supported by Orbit's salloc yet\n", name)
		return 1
	}
	if msg, code := cmdclient.NoOpRefusal("salloc", js, c.Conf); code != 0 {
		io.WriteString(stderr, msg)
		return code
	}
	if msg, code := compatopts.CheckUnmodelledGPU("salloc", js, c.Conf.GresTypes); code != 0 {
		io.WriteString(stderr, msg)
		return code
	}
	if msg := cmdclient.StoredOptionsRefusal("salloc", js, c.Conf); msg != "" {
		io.WriteString(stderr, msg)
		return 1
	}
	if err := jobspec.CheckGres(js.Gres, c.Conf.GresTypes); err != nil && !js.ClustersSet { // -M: the other cluster's GRES are unknown
		fmt.Fprintf(stderr, "salloc: error: %s\n", jobspec.ErrInvalidGres)
		return codes.Error
	}
	if cmdclient.TmpDiskPartly(js, c.Conf) {
		fmt.Fprintln(stderr, "salloc: error: --tmp where only some nodes have the TmpDisk is not supported by Orbit's salloc yet")
		return 1
	}
	if js.GIDSet && int(js.GID) != os.Getgid() { // --gid: salloc takes the group before it asks
		if err := c.SetGroup(js.GID); err != nil {
			fmt.Fprintf(stderr, "salloc: error: %v\n", err)
			return codes.Error
		}
	}
	if js.ClustersSet { // Slurm asks the database for them just before allocating
		if dump != "" {
			io.WriteString(stderr, cmdclient.AccountingPluginLine("salloc", c.Conf))
		}
		cmdclient.ClusterUnreachable(stderr, "salloc", js.Clusters, false)
		return codes.Error
	}
	s := &session{c: c, js: js, so: so, argv: argv, codes: codes, stdout: stdout, stderr: stderr}
	return s.run(context.Background())
}

// refuseUnhonoured refuses options the shared table implements for sbatch but Orbit's
// salloc does not honour yet, so none is silently ignored.
func refuseUnhonoured(js *jobspec.JobSpec) error {
	for _, c := range []struct {
		given bool
		name  string
	}{
		{js.Exclusive == jobspec.SharedMCS, "--exclusive=mcs"},
		{js.GetUserEnv, "--get-user-env"},
		// Site options that change placement: salloc does not check them against the nodes'
		// shapes as sbatch does (the ones that only travel in the environment are accepted).
		// --hint, --threads-per-core and --ntasks-per-core go to the controller, which gives
		// whole cores on nodes with several threads per core.
		{js.Site.CoresPerSocket != jobspec.NoVal, "--cores-per-socket (or -B cores)"},
		{js.Site.SocketsPerNode != jobspec.NoVal, "--sockets-per-node (or -B sockets)"},
		// --spread-job, --use-min-nodes, --switches and -S are judged against slurm.conf
		// (cmdclient.PlacementRefusal).
	} {
		if c.given {
			return &compatopts.Error{Stderr: "salloc: error: " + c.name + " is not supported by Orbit's salloc yet\n", ExitCode: 1}
		}
	}
	return nil
}

// session is one salloc invocation.
type session struct {
	c              *cmdclient.Client
	js             *jobspec.JobSpec
	so             *compatopts.SallocOptions
	argv           []string
	codes          cmdclient.ExitCodes
	stdout, stderr io.Writer
	jobID          uint32
}

func (s *session) call(ctx context.Context, t wire.MsgType, req, resp any) error {
	ctx, cancel := context.WithTimeout(ctx, 2*s.c.MessageTimeout+time.Duration(s.c.ConnectRetries)*time.Second)
	defer cancel()
	return s.c.Call(ctx, t, req, resp)
}

// info prints one of salloc's informational lines, which -Q/--quiet suppresses (Slurm logs
// them with info(), below -Q's level).
func (s *session) info(format string, a ...any) {
	if s.js != nil && s.js.Quiet {
		return
	}
	fmt.Fprintf(s.stderr, "salloc: "+format+"\n", a...)
}

func (s *session) errorf(format string, a ...any) {
	fmt.Fprintf(s.stderr, "salloc: error: "+format+"\n", a...)
}

// release gives the allocation back with the command's wait status (Slurm's
// slurm_complete_job); an allocation already ended is not an error.
func (s *session) release(ctx context.Context, status uint32) {
	err := s.call(ctx, wire.MsgCompleteJobAlloc, &wire.CompleteJobAlloc{JobID: s.jobID, ExitCode: status}, nil)
	if e := cmdclient.AsError(err); e != nil && e.Errno != cmdclient.ErrnoAlreadyDone {
		s.errorf("Unable to clean up job allocation %d: %s", s.jobID, e.Text)
	}
}

func (s *session) run(ctx context.Context) int {
	sigs := notifySignals()
	defer stopSignals(sigs)
	before := time.Now()
	if s.js.Verbose > 1 {
		// -vv: the authentication and hash plugins, loaded for the first request. Slurm's
		// salloc also logs its message thread and its port here; Orbit's salloc has neither
		// (it asks the controller about its allocation), so it does not.
		io.WriteString(s.stderr, cmdclient.PluginDebugLines("salloc", s.c.Conf.AuthType))
	}
	info, code := s.allocate(ctx, sigs)
	if info == nil {
		return code
	}
	if s.js.UIDSet && int(s.js.UID) != os.Getuid() {
		// --uid: the allocation is the user's; salloc becomes the user, without
		// supplementary groups, and runs the command as them.
		if err := s.c.BecomeUser(s.js.UID, []int{}); err != nil {
			s.errorf("%v", err)
			return s.codes.Error
		}
	}
	s.info("Granted job allocation %d", s.jobID)
	s.ringBell(time.Since(before))
	if s.so.NoShell {
		return 0
	}
	return s.runCommand(ctx, info, sigs)
}

// ringBell is salloc's --bell: the terminal bell on stdout (a terminal only), by default
// after a wait of more than ten seconds (DEFAULT_BELL_DELAY).
func (s *session) ringBell(waited time.Duration) {
	switch s.so.Bell {
	case compatopts.BellNever:
		return
	case compatopts.BellAfterDelay:
		if waited <= 10*time.Second {
			return
		}
	}
	if f, ok := s.stdout.(*os.File); ok && isTerminal(f) {
		io.WriteString(f, "\a")
	}
}

// argv0 is the name salloc was invoked by, which getopt's messages name ("/usr/bin/salloc:
// unrecognized option"); "salloc" when there is none.
func argv0() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return os.Args[0]
	}
	return "salloc"
}
