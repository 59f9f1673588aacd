// Command sbatch is Orbit's `sbatch`: it submits a batch script to slurmctld with Slurm's
// command line, #SBATCH directives, input environment, output and exit codes. Option parsing
// lives in compat/options; this package only turns the parsed JobSpec into a submission
// (jobdesc.go), refuses the options Orbit does not honour yet (unhonoured.go), applies
// --export to the environment (export.go), prints the result and with --wait waits for the
// job's end (wait.go).
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
	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/compat/rlimits"
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
func init() { options.Resolver = userdb.SlurmIDs{} }

func main() {
	rlimits.Prefetch() // the NOFILE probe overlaps the start-up (compat/rlimits)
	os.Exit(run(os.Args, os.Environ(), os.Stdout, os.Stderr))
}

// run is one sbatch invocation; it returns the exit status.
func run(argv, env []string, stdout, stderr io.Writer) int {
	// SLURM_EXIT_ERROR is read first, as Slurm's _set_exit_code: its errors exit with it.
	codes := cmdclient.ReadExitCodes("sbatch", env, stderr, false)
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "sbatch: error: getcwd failed: %v\n", err)
		return codes.Error
	}
	now := time.Now()
	js, err := options.SbatchInput{Argv: argv, Env: env, Cwd: wd, Now: now}.Parse()
	if err != nil {
		var oe *options.Error
		if errors.As(err, &oe) {
			io.WriteString(stdout, oe.Stdout) // an option's help (--hint=help)
			io.WriteString(stderr, oe.Stderr)
			return orErrorExit(oe.ExitCode, codes)
		}
		fmt.Fprintf(stderr, "sbatch: error: %v\n", err)
		return codes.Error
	}
	switch js.Action {
	case jobspec.ActionHelp:
		io.WriteString(stdout, options.HelpText("sbatch", helpText, cmdclient.TaskPlugin()))
		return 0
	case jobspec.ActionUsage:
		io.WriteString(stdout, usageText)
		return 0
	case jobspec.ActionVersion:
		fmt.Fprintln(stdout, version.String())
		return 0
	}
	for _, w := range js.Warnings {
		io.WriteString(stderr, w)
	}

	c, err := cmdclient.Load("sbatch", "")
	if err != nil {
		cmdclient.Fatal(stderr, "sbatch", err)
	}
	if msg, code := options.CheckUnmodelledGPU("sbatch", js, c.Conf.GresTypes); code != 0 {
		io.WriteString(stderr, msg)
		return orErrorExit(code, codes)
	}
	if err := jobspec.CheckGres(js.Gres, c.Conf.GresTypes); err != nil && !js.ClustersSet { // -M: the other cluster's GRES are unknown
		fmt.Fprintf(stderr, "sbatch: error: %s\n", jobspec.ErrInvalidGres)
		return codes.Error // nothing was sent to the controller
	}
	for _, w := range siteWarnings(js, c.Conf) { // siteopts.go
		io.WriteString(stderr, w)
	}
	// The limits the job carries (Slurm's _set_rlimit_env, before its -vvv lines); with
	// --get-user-env the node reads the login shell's instead.
	var rl []string
	var rlMsg string
	rlOK := true
	if !js.GetUserEnv {
		rl, rlMsg, rlOK = rlimits.Command("sbatch", js.Propagate, js.PropagateSet, c.Conf.PropagateRlimits, rlimits.Current)
	}
	if dump := options.DefinedOptions(js); dump != "" { // -v: once the options are checked
		io.WriteString(stderr, dump)
		if js.Verbose >= 2 {
			io.WriteString(stderr, propagatingLines(rl)) // debug.go
		}
		if !js.ClustersSet { // Slurm loads them to check GRES, which -M skips
			io.WriteString(stderr, cmdclient.SelectPluginLines("sbatch", c.Conf))
			if js.Verbose >= 2 {
				io.WriteString(stderr, cmdclient.PluginDebugLines("sbatch", c.Conf.AuthType))
			}
		}
	}
	if oe := refuseUnhonoured(js, c.Conf); oe != nil {
		io.WriteString(stderr, oe.Stderr)
		return orErrorExit(oe.ExitCode, codes) // nothing was sent to the controller
	}
	if msg := cmdclient.StoredOptionsRefusal("sbatch", js, c.Conf); msg != "" {
		io.WriteString(stderr, msg)
		return codes.Error
	}
	var fileEnv []string
	if f := js.Stored.ExportFile; f != "" {
		if fileEnv, err = readExportFile(f); err != nil { // stored.go
			fmt.Fprintf(stderr, "sbatch: error: %v\n", err)
			return codes.Error
		}
	}
	if !js.GetUserEnv {
		io.WriteString(stderr, rlMsg)
		if !rlOK {
			return codes.Error // nothing was sent to the controller
		}
		env = rlimits.SetEnv(env, rl)
	}
	desc := jobDesc(js, env, fileEnv, submitHost(), os.Getpid())
	if js.ClustersSet { // Slurm asks the database for them once the job is described
		if js.Verbose > 0 && !js.Quiet {
			io.WriteString(stderr, cmdclient.AccountingPluginLine("sbatch", c.Conf))
		}
		cmdclient.ClusterUnreachable(stderr, "sbatch", js.Clusters, false)
		return codes.Error
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	if js.TestOnly {
		return orErrorExit(willRun(ctx, c, "sbatch", desc, env, stderr), codes)
	}
	var rep wire.SubmitBatchJobReply
	if err := c.Call(ctx, wire.MsgSubmitBatchJob, desc, &rep); err != nil {
		we := cmdclient.AsError(err)
		if we.UserMsg != "" {
			fmt.Fprintf(stderr, "sbatch: error: %s\n", we.UserMsg)
		}
		fmt.Fprintf(stderr, "sbatch: error: Batch job submission failed: %s\n", we.Text)
		return codes.Error
	}
	if rep.UserMessage != "" {
		fmt.Fprintf(stderr, "sbatch: %s\n", rep.UserMessage)
	}
	switch {
	case js.Quiet: // -Q silences --parsable's id too, as in Slurm's sbatch
	case js.Parsable:
		fmt.Fprintf(stdout, "%d\n", rep.JobID)
	default:
		fmt.Fprintf(stdout, "Submitted batch job %d\n", rep.JobID)
	}
	if js.Wait {
		return waitJob(controllerJobs(c), rep.JobID, time.Duration(c.Conf.MinJobAge)*time.Second, time.Sleep, stderr)
	}
	return 0
}

// orErrorExit is code, or SLURM_EXIT_ERROR's value for the generic error exit 1.
func orErrorExit(code int, codes cmdclient.ExitCodes) int {
	if code == 1 {
		return codes.Error
	}
	return code
}
