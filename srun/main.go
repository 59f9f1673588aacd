// Command srun is Orbit's `srun`: it runs a job step, inside an existing allocation (found
// through SLURM_JOB_ID, as in a batch script) or in a new interactive allocation that it
// requests first and releases at the end. It asks slurmctld for the step (id, layout,
// launch credential), sends the launch to each node's slurmd itself, receives the tasks'
// output on its own I/O port (srun/stepio) from each node's slurmstepd, prints it (with -l
// labels), and exits with the highest task exit code (128+signal for a task killed by a
// signal). Per-task I/O (-o/-e/-i patterns, "none", task numbers) follows Slurm's srun
// (taskio.go); stdin goes to every task unless -i says otherwise; -K cancels the step when a
// task ends badly; --multi-prog (srun/multiprog) gives each task its own command line.
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/compat/states"
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
	rlimits.Prefetch() // the NOFILE probe overlaps the start-up (compat/rlimits)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	begun := time.Now()
	// SLURM_EXIT_ERROR and SLURM_EXIT_IMMEDIATE are read first, as Slurm's _set_exit_code.
	codes := cmdclient.ReadExitCodes("srun", os.Environ(), stderr, true)
	o, err := parseArgs(args, inputEnv(os.Environ())) // bind.go
	if err != nil {
		var perr *compatopts.Error
		if errors.As(err, &perr) {
			io.WriteString(stdout, perr.Stdout) // an option's help (--hint=help)
			io.WriteString(stderr, perr.Stderr)
			if perr.ExitCode == 1 {
				return codes.Error
			}
			return perr.ExitCode
		}
		fmt.Fprintf(stderr, "srun: error: %v\n", err)
		return codes.Error
	}
	for _, w := range o.spec.Warnings {
		io.WriteString(stderr, w)
	}
	// Counts settled (options.go) before anything else is said, as Slurm's _opt_verify.
	settleCounts(o, stderr)
	capSlurmdDebug(o, stderr)
	if o.spec.BcastSet && len(o.argv) > 0 { // bcast.go
		p, err := exec.LookPath(o.argv[0])
		if err != nil {
			fmt.Fprintf(stderr, "srun: fatal: Can not execute %s\n", o.argv[0])
			return 1
		}
		o.bcastSrc = p
	}
	if o.spec.TestOnly { // -v: test-only stops before the checks below; Slurm's srun lists them here too
		io.WriteString(stderr, compatopts.DefinedOptions(o.spec))
	}
	switch {
	case o.version:
		fmt.Fprintln(stdout, version.String())
		return 0
	case o.help:
		io.WriteString(stdout, compatopts.HelpText("srun", helpText, cmdclient.TaskPlugin()))
		return 0
	case o.usage:
		io.WriteString(stdout, usageText)
		return 0
	case o.spec.TestOnly: // needs no command, and tests even inside an allocation, as Slurm's srun
		return testOnly(o, stderr) // will_run.go
	case o.spec.MPI == "list": // answered while the options are read: no command needed
		io.WriteString(stdout, mpiListText)
		return 0
	case len(o.argv) == 0:
		fmt.Fprintln(stderr, "srun: fatal: No command given to execute.")
		return 1
	}
	if o.multiProg {
		if code := loadMultiProg(o, stderr); code != 0 {
			return code
		}
	}
	// The job of an existing allocation: --jobid, or SLURM_JOB_ID (which sets it too).
	jobID, _ := strconv.ParseUint(firstNonEmpty(o.spec.JobID, os.Getenv("SLURM_JOBID")), 10, 32)
	inAlloc := jobID != 0
	limit := o.timeLimit
	c, err := cmdclient.Load("srun", "")
	if err != nil {
		cmdclient.Fatal(stderr, "srun", err)
	}
	if o.spec != nil {
		for _, w := range cmdclient.SpecWarnings("srun", o.spec, c.Conf) {
			io.WriteString(stderr, w) // -S without AllowSpecResourcesUsage: dropped
		}
		if name := cmdclient.PlacementRefusal(o.spec, c.Conf); name != "" {
			fmt.Fprintf(stderr, "srun: error: %s is not supported by Orbit's srun yet\n", name)
			return codes.Error
		}
		if msg, code := cmdclient.NoOpRefusal("srun", o.spec, c.Conf); code != 0 {
			io.WriteString(stderr, msg)
			return code
		}
		if msg, code := compatopts.CheckUnmodelledGPU("srun", o.spec, c.Conf.GresTypes); code != 0 {
			io.WriteString(stderr, msg)
			return code
		}
		if err := jobspec.CheckGres(o.spec.Gres, c.Conf.GresTypes); err != nil && !o.spec.ClustersSet { // -M: the other cluster's GRES are unknown
			fmt.Fprintf(stderr, "srun: error: %s\n", jobspec.ErrInvalidGres)
			return 1
		}
		if msg := cmdclient.StoredOptionsRefusal("srun", o.spec, c.Conf); msg != "" {
			io.WriteString(stderr, msg)
			return 1
		}
	}
	if o.spec != nil {
		mergeMemBind(&o.spec.Site, os.Environ()) // bind.go
	}
	noAllocBad := checkNoAlloc(o.spec, stderr) // no_alloc.go
	if code := checkRelative(o.spec, inAlloc, stderr); code >= 0 {
		return code
	}
	if noAllocBad {
		return codes.Error
	}
	if o.spec != nil && o.spec.NoAllocate {
		inAlloc = false // -Z runs no job, whatever allocation srun is in
	}
	if o.spec != nil {
		o.mpi = mpiType(o.spec.MPI, c.Conf.MpiDefault) // mpi.go
		if code := checkMPI(o.mpi, stderr); code >= 0 {
			return code
		}
	}
	verboseOnly := false // a --cpu-bind=verbose that --threads-per-core adds its binding to
	if o.spec != nil && o.spec.CPUBindSet {
		if code := checkCPUBind(o, c.Conf.TaskPlugin, stdout, stderr); code >= 0 { // bind.go
			return code
		}
		verboseOnly = o.cpuBind != nil && o.cpuBind.To == "" && o.cpuBind.Type == ""
	}
	if o.spec != nil && (!o.spec.CPUBindSet || verboseOnly) &&
		cpuBindUnsupported(&o.spec.Site, hasVar(os.Environ(), "SLURM_THREADS_PER_CORE"), c.Conf.TaskPlugin) {
		// Slurm's srun says so while it checks its options, before -Q takes effect (so
		// even srun -Q prints it), and runs the step; after a --cpu-bind=verbose's own line
		// it checks the binding --threads-per-core merges into it again, and says it twice.
		fmt.Fprintln(stderr, "srun: cluster configuration lacks support for cpu binding")
	}
	if !o.spec.TestOnly { // -v: once the options are checked (cpu-bind and MPI above)
		io.WriteString(stderr, compatopts.DefinedOptions(o.spec))
	}
	if o.spec != nil && !inAlloc && cmdclient.TmpDiskPartly(o.spec, c.Conf) {
		fmt.Fprintln(stderr, "srun: error: --tmp where only some nodes have the TmpDisk is not supported by Orbit's srun yet")
		return 1
	}
	if code := propagateRlimits(o.spec, c, stderr); code != 0 { // rlimits.go
		return code
	}
	if o.spec != nil && o.spec.ClustersSet {
		// Slurm asks the database for them as it allocates (SLURM_EXIT_ERROR on failure)
		// or, inside an allocation, before it looks the job up (exit 1).
		io.WriteString(stderr, clusterLookupLine(o.spec, c))
		cmdclient.ClusterUnreachable(stderr, "srun", o.spec.Clusters, false)
		if inAlloc {
			return 1
		}
		return codes.Error
	}
	if msg := arbitraryRefusal(o, inAlloc); msg != "" { // task_dist.go
		fmt.Fprintf(stderr, "srun: error: %s\n", msg)
		return codes.Error
	}
	ctx := context.Background()
	s := &session{c: c, opts: o, stdout: stdout, stderr: stderr, begun: begun, codes: codes}
	if o.spec.NoAllocate {
		if !o.spec.Quiet {
			fmt.Fprintln(stderr, "srun: do not allocate resources")
		}
		jobID, s.noAlloc = uint64(noAllocJobID()), true
	} else if !inAlloc {
		id, code := s.allocate(ctx, limit)
		if code != 0 {
			return code
		}
		jobID = uint64(id)
		s.allocated = true
		if s.alloc != nil && (o.spec == nil || o.spec.TaskNodes == nil) {
			// Slurm's _job_create_structure: without -n, -c's tasks fill what the job got
			// (srun -N1 -c1 --exclusive runs one task per CPU of the node).
			setStepTasks(o, s.alloc.CPUsPerNode, len(s.alloc.Nodes)) // step_in_alloc.go
		}
	} else {
		info, code := s.confirmAllocation(ctx, uint32(jobID)) // alloc_confirm.go
		if code != 0 {
			return code
		}
		s.alloc = info
	}
	s.jobID = uint32(jobID)
	if !s.noAlloc {
		s.printJobInformation(ctx, s.alloc) // verbose.go
	}
	if inAlloc {
		say := func(msg string) { fmt.Fprintf(stderr, "srun: error: %s\n", msg) }
		if o.spec != nil && !o.spec.Begin.IsZero() {
			say("--begin is ignored because nodes are already allocated.")
		}
		if !stepInAllocation(o, s.alloc, say) { // step_in_alloc.go
			return 1
		}
	}
	if code := s.becomeUser(); code != 0 {
		if s.allocated {
			// Slurm's srun dies here and leaves its allocation to time out; it goes back.
			s.release(ctx, code)
		}
		return code
	}
	var stopAlive func()
	if s.allocated {
		stopAlive = s.keepAllocAlive(ctx) // inactive_limit.go
	}
	code := s.runStepWithScripts(ctx, stdin)
	if s.allocated {
		stopAlive()
		s.release(ctx, code)
	}
	if s.stepEnded != nil {
		<-s.stepEnded // bounded: call's own timeout
	}
	return code
}

// session is one srun invocation's state.
type session struct {
	c              *cmdclient.Client
	opts           *options
	stdout, stderr io.Writer
	jobID          uint32
	allocated      bool
	begun          time.Time           // srun's start, from which -I counts for a step
	alloc          *wire.JobAllocInfo  // the allocation srun was granted (nil inside one)
	codes          cmdclient.ExitCodes // SLURM_EXIT_ERROR, SLURM_EXIT_IMMEDIATE
	noAlloc        bool                // srun -Z: a step without a job (no_alloc.go)
	bcastLibs      bool                // srun --bcast --send-libs sent the libraries (bcast.go)
	// abortLaunch says the step is aborted as soon as it is launched: srun's prolog
	// failed (srun_prolog.go).
	abortLaunch bool
	// stepEnded is closed once the controller answered the step's completion (runStep).
	stepEnded chan struct{}
}

// stepName is the step's name as Slurm's srun gives it: --job-name from the command line,
// else the command's base name (a SLURM_JOB_NAME inherited from the job does not name it).
func stepName(o *options) string {
	if o.spec != nil && o.spec.NameFromCLI && o.jobName != "" {
		return o.jobName
	}
	if len(o.argv) > 0 {
		return filepath.Base(o.argv[0])
	}
	return o.jobName
}

// cancelStep cancels the step through the controller, as scancel JOB.STEP does: each node
// kills its tasks and says the step was cancelled.
func (s *session) cancelStep(ctx context.Context, step *wire.StepCreateReply) {
	req := &wire.KillJobRequest{JobID: step.JobID, ArrayTaskID: wire.NoVal, Signal: int32(syscall.SIGKILL), Step: true, StepID: step.StepID}
	s.call(ctx, wire.MsgKillJob, req, &wire.KillJobReply{})
}

func (s *session) call(ctx context.Context, t wire.MsgType, req, resp any) error {
	ctx, cancel := context.WithTimeout(ctx, 2*s.c.MessageTimeout+time.Duration(s.c.ConnectRetries)*time.Second)
	defer cancel()
	return s.c.Call(ctx, t, req, resp)
}

// allocate requests an interactive allocation and waits until it runs. Like Slurm's srun,
// it says it is waiting only when the job does not start at once.
func (s *session) allocate(ctx context.Context, limit uint32) (uint32, int) {
	d := jobDesc(s.opts, limit)
	immediate := s.opts.spec.Immediate
	var rep wire.AllocateJobReply
	// -I (one second) is the controller's to judge; a longer -I is srun's own wait below.
	err := s.call(ctx, wire.MsgAllocateJob, &wire.AllocateJobDesc{Job: d, Immediate: immediate == 1}, &rep)
	if err == nil && rep.Refused.Errno != 0 {
		err = &rep.Refused // recorded and refused at once: Slurm's srun prints only the refusal
	}
	if err != nil {
		e := cmdclient.AsError(err)
		if e.UserMsg != "" { // the controller's explanation comes first, as in Slurm
			fmt.Fprintf(s.stderr, "srun: error: %s\n", e.UserMsg)
		}
		fmt.Fprintf(s.stderr, "srun: error: Unable to allocate resources: %s\n", e.Text)
		if immediate > 0 && e.Errno == wire.ErrnoNodesBusy {
			return 0, s.codes.Immediate
		}
		return 0, s.codes.Error
	}
	// Stop waiting (and give the job back) on SIGINT/SIGTERM, as srun does.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// Slurm's srun says the job is queued when its allocation was not started at once,
	// after the reason its allocate RPC gave, if any.
	s.jobID = rep.JobID // a signal while waiting gives this job back
	if rep.PendingMsg != "" {
		fmt.Fprintf(s.stderr, "srun: %s\n", rep.PendingMsg)
	}
	said := !rep.Started
	if said {
		fmt.Fprintf(s.stderr, "srun: job %d queued and waiting for resources\n", rep.JobID)
	}
	giveUp := time.Now().Add(time.Duration(immediate) * time.Second)
	for first := true; ; first = false {
		var info wire.JobAllocInfo
		var err error
		if first && rep.Alloc != nil {
			info = *rep.Alloc // started by the allocate RPC: no need to ask
		} else {
			err = s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: rep.JobID}, &info)
		}
		if err != nil && !cmdclient.Unreachable(err) {
			fmt.Fprintf(s.stderr, "srun: error: Unable to allocate resources: %s\n", cmdclient.AsError(err).Text)
			return 0, s.codes.Error
		}
		st := states.JobState(info.State)
		if err != nil {
			st = states.JobPending // the controller is away (restarting): wait on
		}
		switch {
		case st.IsRunning() && !st.IsCompleting():
			if said {
				fmt.Fprintf(s.stderr, "srun: job %d has been allocated resources\n", rep.JobID)
			}
			s.alloc = &info
			return rep.JobID, 0
		case !st.IsPending():
			fmt.Fprintf(s.stderr, "srun: error: Unable to allocate resources: Job/step already completing or completed\n")
			return 0, s.codes.Error
		}
		if immediate > 1 && !time.Now().Before(giveUp) {
			// Slurm's srun takes the request back (slurm_complete_job) and reports the
			// timeout as busy nodes.
			s.release(ctx, 1<<8)
			fmt.Fprintf(s.stderr, "srun: error: Unable to allocate resources: %s\n", wire.NewError(wire.ErrnoNodesBusy).Text)
			return 0, s.codes.Immediate
		}
		select {
		case <-sigs:
			fmt.Fprintf(s.stderr, "srun: Job allocation %d has been revoked\n", rep.JobID)
			s.release(ctx, 1<<8)
			// The controller's word that the job ended, as Slurm's srun prints it.
			fmt.Fprintf(s.stderr, "srun: Force Terminated JobId=%d\n", rep.JobID)
			return 0, 1
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// createStep asks for the step. While the job's other steps hold the CPUs it needs, the
// controller answers "Requested nodes are busy" and srun tries again, as Slurm's does: it
// says so once, waits a little longer each time (up to a second) and says when the step was
// created.
func (s *session) createStep(ctx context.Context, req *wire.StepCreateRequest) (*wire.StepCreateReply, int) {
	if n := s.opts.spec.Immediate; n > 0 {
		return s.createStepImmediate(ctx, req, n)
	}
	wait := 100 * time.Millisecond
	for retried := false; ; retried = true {
		var step wire.StepCreateReply
		err := s.call(ctx, wire.MsgStepCreate, req, &step)
		if err == nil {
			if retried {
				fmt.Fprintf(s.stderr, "srun: Step created for job %d\n", s.jobID)
			}
			return &step, 0
		}
		e := cmdclient.AsError(err)
		if e.Errno != wire.ErrnoNodesBusy {
			fmt.Fprintf(s.stderr, "srun: error: Unable to create step for job %d: %s\n", s.jobID, e.Text)
			return nil, 1
		}
		if !retried {
			fmt.Fprintf(s.stderr, "srun: Job %d step creation temporarily disabled, retrying (%s)\n", s.jobID, e.Text)
		}
		select {
		case <-ctx.Done():
			return nil, 1
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// createStepImmediate is createStep under -I N: a step refused for busy CPUs is asked for
// again until N seconds after srun started (at least one second), silently, and then given
// up, as Slurm's srun gives up its step_ctx_create_timeout wait. With -I1 Slurm's srun never
// asks twice: it waits the second and fails.
func (s *session) createStepImmediate(ctx context.Context, req *wire.StepCreateRequest, n int) (*wire.StepCreateReply, int) {
	giveUp := time.Now().Add(max(time.Second, time.Duration(n)*time.Second-time.Since(s.begun)))
	for tries := 0; ; tries++ {
		var step wire.StepCreateReply
		err := s.call(ctx, wire.MsgStepCreate, req, &step)
		if err == nil {
			if tries > 0 {
				fmt.Fprintf(s.stderr, "srun: Job %d step creation temporarily disabled, retrying (%s)\n", s.jobID,
					wire.NewError(wire.ErrnoNodesBusy).Text)
				fmt.Fprintf(s.stderr, "srun: Step created for job %d\n", s.jobID)
			}
			return &step, 0
		}
		e := cmdclient.AsError(err)
		if e.Errno == wire.ErrnoNodesBusy && n == 1 {
			// Slurm's srun waits out its second before it fails.
			select {
			case <-ctx.Done():
			case <-time.After(time.Until(giveUp)):
			}
		}
		if e.Errno != wire.ErrnoNodesBusy || n == 1 || !time.Now().Before(giveUp) {
			fmt.Fprintf(s.stderr, "srun: error: Unable to create step for job %d: %s\n", s.jobID, e.Text)
			return nil, 1
		}
		select {
		case <-ctx.Done():
			return nil, 1
		case <-time.After(min(100*time.Millisecond, time.Until(giveUp))):
		}
	}
}

// release ends the interactive allocation with srun's exit code.
func (s *session) release(ctx context.Context, code int) {
	status := uint32(code&0xff) << 8
	if err := s.call(ctx, wire.MsgCompleteJobAlloc, &wire.CompleteJobAlloc{JobID: s.jobID, ExitCode: status}, nil); err != nil {
		fmt.Fprintf(s.stderr, "srun: error: Unable to release job allocation %d: %s\n", s.jobID, cmdclient.AsError(err).Text)
	}
}

// runStep creates the step, launches it, relays its I/O and returns srun's exit code.
func (s *session) runStep(ctx context.Context, stdin io.Reader) int {
	o := s.opts
	req := &wire.StepCreateRequest{JobID: s.jobID, NumTasks: o.ntasks, MinNodes: o.nodes, Relative: o.spec.Relative,
		TasksPerNode: o.tasksPerNode, CPUsPerTask: o.cpusPerTask, Name: stepName(o), NodeList: o.nodelist, ExcNodes: o.spec.Exclude, Features: o.spec.Constraint,
		SrunHost: shortHostname(), SrunPid: uint32(os.Getpid()), Gres: o.spec.Gres, // for scontrol show step; --gres checked against the job's
		Overcommit: o.spec.Overcommit, PlaneSize: planeSize(&o.spec.Site)}
	if nodeDistribution(o.spec.Site.Distribution) == "arbitrary" {
		req.TaskNodes = o.spec.TaskNodes // the controller counts each node's tasks
	}
	if !s.allocated && s.alloc != nil && o.spec.MaxNodes > 0 {
		req.MaxNodes = min(o.spec.MaxNodes, uint32(len(s.alloc.Nodes))) // launch.c: at most the allocation's
	}
	if !s.allocated && !s.noAlloc && o.timeLimit > 0 && o.timeLimit != wire.NoVal {
		req.TimeLimit = o.timeLimit // --time in an existing allocation: the step's own limit
	}
	if s.allocated {
		req.NodeList, req.ExcNodes, req.Features = "", "", "" // the allocation honoured them
		if s.alloc != nil && uint32(len(s.alloc.Nodes)) > req.MinNodes {
			req.MinNodes = uint32(len(s.alloc.Nodes)) // -N min-max, --spread-job: the step spans the allocation
		}
	}
	if req.NumTasks > 0 && req.MinNodes > req.NumTasks {
		if o.nodesSet {
			fmt.Fprintf(s.stderr, "srun: Warning: can't run %d processes on %d nodes, setting nnodes to %d\n",
				req.NumTasks, req.MinNodes, req.NumTasks)
		}
		req.MinNodes = req.NumTasks
	}
	req.Exact = o.spec.Exact // srun --exclusive sets it too
	req.Overlap = o.spec.Overlap
	var step *wire.StepCreateReply
	var code int
	if s.noAlloc {
		step, code = s.noAllocStep(ctx) // no_alloc.go
	} else {
		step, code = s.createStep(ctx, req)
	}
	if code != 0 {
		return code
	}
	// The step holds its CPUs until the controller hears it ended, so it is told on every
	// way out, a failure before the launch included (status 1).
	status := uint32(1) << 8
	defer func() {
		if s.noAlloc {
			return // the controller has no such step
		}
		// Told while srun goes on (its epilog, the allocation's release), as Slurm's
		// slurmstepd tells it apart from srun; run waits for the answer before srun exits.
		done := make(chan struct{})
		s.stepEnded = done
		go func() {
			defer close(done)
			s.call(ctx, wire.MsgStepComplete, &wire.StepComplete{JobID: step.JobID, StepID: step.StepID, ExitCode: status}, nil)
		}()
	}()
	var pty *ptyTerm
	if o.spec.Pty {
		pty = startPty(s.stderr) // pty.go
		defer pty.restore()
	}
	if len(step.Nodes) == 0 || len(step.Tasks) != len(step.Nodes) || len(step.Addrs) != len(step.Nodes) ||
		len(step.CPUsOnNode) != len(step.Nodes) {
		fmt.Fprintf(s.stderr, "srun: error: Unable to create step for job %d: malformed reply\n", s.jobID)
		return 1
	}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		fmt.Fprintf(s.stderr, "srun: error: cannot listen for task I/O: %v\n", err)
		return 1
	}
	defer ln.Close()
	key := make([]byte, 32)
	rand.Read(key)
	commHost := localAddrTowards(step.Addrs[0])
	port := ln.Addr().(*net.TCPAddr).Port

	wd, _ := os.Getwd()
	if o.chdir != "" {
		wd = o.chdir
	}
	host, _ := os.Hostname()
	um := syscall.Umask(0)
	syscall.Umask(um)
	base := os.Environ()
	if o.spec != nil {
		base = jobspec.StepExportEnv(base, o.spec.Export) // --export, SLURM_EXPORT_ENV
	}
	env := stepEnv{base: base, step: step, uid: uint32(os.Getuid()), gid: uint32(os.Getgid()),
		commHost: commHost, commPort: port, submitDir: firstNonEmpty(os.Getenv("SLURM_SUBMIT_DIR"), wd),
		submitHos: firstNonEmpty(os.Getenv("SLURM_SUBMIT_HOST"), host), confPath: s.c.ConfPath,
		umask: um, label: o.label, cpt: o.cpusPerTask, inAlloc: !s.allocated && !s.noAlloc, noAlloc: s.noAlloc, jobName: o.jobName,
		tasksPerNode: o.tasksPerNode}
	if env.jobName == "" && len(o.argv) > 0 {
		env.jobName = filepath.Base(o.argv[0]) // Slurm's srun names its job after the command
	}
	if o.spec != nil && o.spec.BcastSet {
		if code := s.fileBcast(ctx, step, wd); code != 0 { // bcast.go
			return code
		}
	}
	if o.spec != nil {
		env.site, env.cpuBind, env.preserve = o.spec.Site, o.cpuBind, o.spec.PreserveEnv
		env.logLevel = 3 + o.spec.Verbose
		if o.spec.Quiet {
			env.logLevel = 2
		}
		env.stored, env.overcommit, env.mpi = o.spec.Stored, o.spec.Overcommit, o.mpi
		if pty != nil {
			env.pty, env.ptyRows, env.ptyCols = true, pty.rows, pty.cols
		}
	} else {
		env.site, env.stored = jobspec.NewSiteOptions(), jobspec.NewStoredOptions()
		env.logLevel = 3
	}

	plan, err := newIOPlan(o, step, s.stdout, s.stderr)
	if err != nil {
		fmt.Fprintf(s.stderr, "srun: error: %v\n", err)
		return 1
	}
	defer plan.close()
	launches := make([]*wire.LaunchTasks, len(step.Nodes))
	nodeRanks := taskRanks(step.Tasks, env.distribution(), planeSize(&env.site)) // task_dist.go
	if o.spec != nil && len(o.spec.TaskNodes) > 0 && nodeDistribution(o.spec.Site.Distribution) == "arbitrary" {
		nodeRanks = arbitraryRanks(step.Nodes, o.spec.TaskNodes)
	}
	for i := range step.Nodes {
		launches[i] = &wire.LaunchTasks{Ranks: nodeRanks[i]}
		plan.fill(launches[i], uint32(i))
	}
	relay := newRelay(ln, key, step, plan.stdout, plan.stderr, o.label, plan.stdinNodes)
	relay.setRanks(nodeRanks)
	var pmiSize uint32
	var pmiMapping string
	if o.mpi == mpiPMI2 {
		pmiSize, pmiMapping = step.NumTasks, processMapping(nodeRanks) // pmi_mapping.go
		relay.pmi = newPMIFences(len(step.Nodes))                      // pmi_fence.go
		// A task's MPI_Abort ends the step as Slurm's mpi/pmi2 does: the step is cancelled
		// through the controller, on every node.
		relay.pmiAbort = func(rank, code uint32) { go s.cancelStep(ctx, step) }
	}
	copts := wire.ClientOptions{MessageTimeout: s.c.MessageTimeout, Signer: s.c.Signer()}
	sigs := &stepSignals{s: s, step: step, copts: copts, relay: relay, quit: o.spec.QuitOnInterrupt,
		noStatus: o.spec.DisableStatus} // interrupt.go
	relay.cancelled = sigs.stepCancelled
	if o.spec.DebuggerTest {
		relay.procs = &proctable{pids: map[uint32]uint32{}, tasks: step.NumTasks, nodeOf: relay.nodeOfRank,
			executable: executableOf(o.argv[0], o.multiProg, o.multiProgData)}
		if !o.spec.Quiet {
			relay.procs.out = s.stderr
		}
	}
	if w := o.spec.MaxWait; w > 0 {
		relay.firstEnd = func() { sigs.waitLimit(ctx, w) }
	}
	go relay.accept()

	killBadExit := o.killBadExit == 1 || o.killBadExit < 0 && s.c.Conf.KillOnBadExit != 0
	reported := relay.reported // under relay.mu
	if !killBadExit && !s.verbose() {
		relay.early, relay.givenUp = &earlyExits{}, sigs.givenUp
	}
	if killBadExit {
		relay.badExit = func(e taskEnd) {
			relay.out.Lock()
			fmt.Fprintf(s.stderr, "srun: error: %s: task %d: %s\n", e.node, e.rank, endText(e))
			fmt.Fprintf(s.stderr, "srun: launch/slurm: _step_signal: Terminating StepId=%d.%d\n", step.JobID, step.StepID)
			relay.out.Unlock()
			relay.mu.Lock()
			reported[e.rank] = true
			relay.mu.Unlock()
			sigs.killingBadExit()
			go s.signalStep(ctx, step, copts, syscall.SIGKILL)
		}
	}
	envs := make([][]string, len(step.Nodes))
	for i, node := range step.Nodes {
		m := launches[i]
		m.NodeName, m.NodeID, m.StepGTIDs, m.CPUsOnNode = node, uint32(i), gtids(m.Ranks), step.CPUsOnNode[i]
		envs[i] = env.nodeEnv(i, m.Ranks)
	}
	common := &wire.LaunchTasks{Cred: step.Cred, JobID: step.JobID, StepID: step.StepID, UserID: env.uid, GroupID: env.gid,
		Argv: o.argv, WorkDir: wd, IOAddr: net.JoinHostPort(commHost, strconv.Itoa(port)), IOKey: key,
		KillWait: step.KillWait, TimeLimit: step.TimeLimit, StepTimeLimit: step.StepTimeLimit, MultiProg: o.multiProgData, OpenMode: int32(o.openMode),
		TaskProlog: o.spec.TaskProlog, TaskEpilog: o.spec.TaskEpilog,
		StdinRank: -1, PMISize: pmiSize, PMIMapping: pmiMapping, SlurmdDebug: o.spec.SlurmdDebug,
		ParallelDebug: o.spec.DebuggerTest, NoAlloc: s.noAlloc, BcastLibs: s.bcastLibs, GPUsPerTask: gpusPerTask(o.spec.TresPerTask), SrunAlloc: s.allocated}
	if pty != nil {
		common.Pty, common.PtyRows, common.PtyCols = true, pty.rows, pty.cols
		defer pty.follow(relay.sendWinsize)()
	}
	launchErr, launchErrno, failedNodes := s.launchStep(ctx, step, common, launches, envs, relay, copts) // launch_fanout.go
	if s.abortLaunch {
		fmt.Fprintf(s.stderr, "srun: launch/slurm: launch_p_step_launch: StepId=%d.%d aborted before step completely launched.\n", step.JobID, step.StepID)
		sigs.abort(ctx)
	}
	if launchErr != "" {
		fmt.Fprintf(s.stderr, "srun: error: Task launch for StepId=%d.%d failed on node %s\n", step.JobID, step.StepID, launchErr)
		if failedNodes == len(step.Nodes) {
			// No node runs the step: Slurm's srun gives the launch up as a whole.
			_, text, _ := strings.Cut(launchErr, ": ")
			fmt.Fprintf(s.stderr, "srun: error: Application launch failed: %s\n", text)
			fmt.Fprintln(s.stderr, "srun: Job step aborted")
			if code := int(launchErrno) & 0xff; code != 0 {
				return code // as Slurm's srun, the errno's low byte (Access/permission denied: 210)
			}
			return 1
		}
	}
	if plan.stdinFile != nil {
		stdin = plan.stdinFile
	}
	// As Slurm's client_io_handler_start: an srun sent to the background keeps relaying its
	// tasks' output; its read of the terminal fails (the end of the tasks' input) instead
	// of stopping it.
	signal.Ignore(syscall.SIGTTIN)
	go relay.forwardStdin(stdin)
	stopSigs := sigs.watch(ctx)
	exits := relay.wait()
	stopSigs()
	pty.restore() // before srun's report, as Slurm's srun does

	relay.mu.Lock()
	code, signalled := s.report(step, exits, maps.Clone(reported), sigs.givenUp())
	relay.mu.Unlock()
	if signalled && !sigs.forced() {
		fmt.Fprintf(s.stderr, "srun: Force Terminated StepId=%d.%d\n", step.JobID, step.StepID)
	}
	status = stepStatus(exits, code) // relay.go
	return code
}

// localAddrTowards is this host's address on the route to addr (SLURM_SRUN_COMM_HOST).
func localAddrTowards(addr string) string {
	c, err := net.Dial("udp", addr)
	if err != nil {
		return "127.0.0.1"
	}
	defer c.Close()
	host, _, _ := net.SplitHostPort(c.LocalAddr().String())
	return host
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// jobDesc is the allocation request srun's options describe (limit in minutes, 0 = none).
func jobDesc(o *options, limit uint32) wire.JobDesc {
	wd, _ := os.Getwd()
	host, _ := os.Hostname()
	d := wire.JobDesc{
		Name: o.jobName, Partition: o.partition, ReqNodes: o.nodelist,
		MinNodes: wire.NoVal, NumTasks: wire.NoVal, NTasksPerNode: wire.NoVal, CPUsPerTask: wire.NoVal,
		MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64, TimeLimit: wire.NoVal, TimeMin: wire.NoVal,
		Priority: wire.NoVal, Requeue: -1, WorkDir: wd, SubmitDir: wd, SubmitHost: host, AllocSID: cmdclient.SessionID(),
		Environment: os.Environ(), MaxNodes: wire.NoVal,
	}
	if len(o.argv) > 0 {
		d.Command = o.argv[0] // Slurm's srun sends the command; scontrol shows argv[0]
	}
	if js := o.spec; js != nil {
		d.NoKill = js.NoKill
		d.Account, d.QOS, d.Reservation, d.WCKey, d.Comment = js.Account, js.QOS, js.Reservation, js.WCKey, js.Comment
		d.Nice, d.MailType, d.MailUser = js.Nice, js.MailType, js.MailUser
		d.Dependency, d.KillInvalid, d.Hold = js.Dependency, int32(js.KillInvalidDep), js.Hold
		d.ExcNodes, d.Constraint, d.Licenses, d.TimeMin = js.Exclude, js.Constraint, js.Licenses, js.TimeMin
		if js.MinCPUs != jobspec.NoVal {
			d.MinCPUs = js.MinCPUs
		}
		if js.Site.TmpDiskMB != jobspec.NoVal64 {
			d.TmpDiskMB = js.Site.TmpDiskMB // for the controller's check (TmpDiskPartly)
		}
		d.ThreadsPerCore, d.NTasksPerCore = js.Site.ThreadsPerCore, js.Site.NTasksPerCore // whole cores
		d.SpreadJob, d.UseMinNodes = js.Site.SpreadJob, js.Site.UseMinNodes
		if js.Requeue >= 0 {
			d.Requeue = int32(js.Requeue)
		}
		if !js.Begin.IsZero() {
			d.BeginTime = js.Begin.Unix()
		}
		if !js.Deadline.IsZero() {
			d.Deadline = js.Deadline.Unix()
		}
	}
	if o.spec != nil && (o.spec.Exclusive == jobspec.SharedNone || o.spec.Exclusive == jobspec.SharedUser || o.spec.Exclusive == jobspec.SharedOK) {
		// --exclusive: whole nodes for the job; =user: nodes kept to the user;
		// --oversubscribe: CPUs shared where the partition allows it.
		d.Shared = int32(o.spec.Exclusive)
	}
	if o.spec != nil {
		cmdclient.StoredDesc(&d, o.spec)
		cmdclient.SignalDesc(&d, o.spec) // inside an allocation srun --signal does nothing, as in Slurm
	}
	if d.Name == "" && len(o.argv) > 0 {
		d.Name = o.argv[0]
	}
	if o.nodes > 0 {
		d.MinNodes = o.nodes
	} else if o.nodesSet && o.spec != nil && o.spec.MinNodes == 0 {
		d.MinNodes = 0 // -N 0: the controller refuses it, as Slurm's does
	}
	if o.spec != nil && o.spec.NodesSet && o.spec.MaxNodes != 0 && o.spec.MaxNodes != jobspec.NoVal {
		d.MaxNodes = o.spec.MaxNodes // -N min-max: the selection aims at the maximum
	}
	if o.ntasks > 0 {
		d.NumTasks = o.ntasks
	}
	if o.tasksPerNode > 0 {
		d.NTasksPerNode = o.tasksPerNode
	}
	if o.cpusPerTask > 0 {
		d.CPUsPerTask = o.cpusPerTask
	}
	if limit > 0 {
		d.TimeLimit = limit
	}
	if o.memPerNode != jobspec.NoVal64 {
		d.MemPerNode = o.memPerNode
	}
	if o.memPerCPU != jobspec.NoVal64 {
		d.MemPerCPU = o.memPerCPU
	}
	if js := o.spec; js != nil {
		d.Gres = js.Gres                                                                      // --gres of the allocation srun makes (inside one, the job's GRES serve the step)
		d.UserID, d.UserIDSet, d.GroupID, d.GroupIDSet = js.UID, js.UIDSet, js.GID, js.GIDSet // --uid, --gid
	}
	return d
}

// shortHostname is this host's name up to its first dot, as Slurm's srun reports itself.
func shortHostname() string {
	h, _ := os.Hostname()
	if i := strings.IndexByte(h, '.'); i >= 0 {
		h = h[:i]
	}
	return h
}
