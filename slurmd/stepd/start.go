package stepd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/slurmd/taskexec"
	"golang.org/x/sys/unix"
)

// ScriptName is the batch script's name in the job's spool directory.
const ScriptName = "slurm_script"

// JobDir is the job's directory in the spool, <spool>/job%05u, as Slurm names it.
func JobDir(spool string, jobID uint32) string {
	return filepath.Join(spool, fmt.Sprintf("job%05d", jobID))
}

// IOSetupError is Start's error when a task's input or output file cannot be opened
// (Slurm's ESLURMD_IO_ERROR): a batch step then ends FAILED rather than refusing the launch.
type IOSetupError struct{ Err error }

func (e *IOSetupError) Error() string { return e.Err.Error() }

func (e *IOSetupError) Unwrap() error { return e.Err }

// task is one running task.
type task struct {
	Task
	pid    int
	start  uint64
	status <-chan unix.WaitStatus
	exit   *TaskExit // set once the task has ended
	copies sync.WaitGroup
	pipes  []*os.File // parent ends of stream pipes, closed if the copies outlive the step
}

// Start runs the step's tasks and returns at once; Wait reports how they ended. An error
// means no task was left running.
func Start(spec StepSpec) (*Step, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	if !taskexec.Supported {
		return nil, fmt.Errorf("stepd: %v", taskexec.ErrUnsupported)
	}
	c, err := resolveCred(&spec)
	if err != nil {
		return nil, err
	}
	if spec.TimeoutSignal == 0 {
		spec.TimeoutSignal = syscall.SIGTERM
	}
	if err := becomeSubreaper(); err != nil {
		return nil, fmt.Errorf("stepd: cannot become child subreaper: %v", err)
	}
	s := &Step{spec: spec, cred: c, done: make(chan struct{}), members: map[int]uint64{},
		term: make(chan struct{}), state: StateRunning}
	s.spec.Tasks = append([]Task(nil), spec.Tasks...) // the batch task's argv is rewritten below
	s.statePath = StatePath(spec.Spool, spec.JobID, spec.StepID)
	if err := s.makeJobDir(); err != nil {
		return nil, err
	}
	if spec.IsBatch() {
		path, err := s.writeScript()
		if err != nil {
			return nil, err
		}
		s.script = path
		s.spec.Tasks[0].Argv = append([]string{path}, argvTail(spec.Tasks[0].Argv)...)
	}
	cwd, chdirErr := s.workDir()
	files, err := s.openStdio()
	if err != nil {
		s.removeScript()
		return nil, &IOSetupError{Err: err}
	}
	if len(files) > 0 {
		s.keepLog(files[0])
	}
	reg.Lock()
	addStep(s)
	reg.Unlock()
	leave := s.joinCgroup()
	s.startTime = time.Now()
	for i := range s.spec.Tasks {
		t := &task{Task: s.spec.Tasks[i]}
		s.tasks = append(s.tasks, t)
		s.fork(t, files[i], cwd, chdirErr)
	}
	leave()
	for _, f := range files {
		f.closeChildEnds()
	}
	if err := s.writeState(); err != nil {
		// The tasks run; without the state file a restarted slurmd cannot find them, which
		// Slurm would also only log.
		fmt.Fprintf(os.Stderr, "%s: error: %v\n", s.spec.logPrefix(), err)
	}
	go s.supervise()
	return s, nil
}

func argvTail(a []string) []string {
	if len(a) > 1 {
		return a[1:]
	}
	return nil
}

// makeJobDir creates <spool>/job%05u: mode 0750, group the job's gid, so the user can reach
// the script and nobody else can.
func (s *Step) makeJobDir() error {
	dir := JobDir(s.spec.Spool, s.spec.JobID)
	if err := os.MkdirAll(dir, 0750); err != nil {
		return fmt.Errorf("stepd: cannot create job directory: %v", err)
	}
	if s.cred.drop {
		if err := os.Chown(dir, -1, int(s.spec.GID)); err != nil {
			return fmt.Errorf("stepd: chown %s: %v", dir, err)
		}
	}
	if err := os.Chmod(dir, 0750); err != nil {
		return fmt.Errorf("stepd: chmod %s: %v", dir, err)
	}
	return nil
}

// writeScript writes the batch script, mode 0700 and owned by the job's user, as Slurm does.
func (s *Step) writeScript() (string, error) {
	path := filepath.Join(JobDir(s.spec.Spool, s.spec.JobID), ScriptName)
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0700)
	if err != nil {
		return "", fmt.Errorf("stepd: cannot create batch script: %v", err)
	}
	_, werr := f.Write(s.spec.Script)
	if s.cred.drop && werr == nil {
		werr = f.Chown(int(s.spec.UID), -1)
	}
	if werr == nil {
		werr = f.Chmod(0700)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("stepd: cannot write batch script %s: %v", path, werr)
	}
	return path, nil
}

func (s *Step) removeScript() {
	if s.script != "" {
		os.Remove(s.script)
	}
}

// workDir is the directory the tasks start in: the job's, or /tmp when the user cannot
// enter it (Slurm's fallback). The error says why the job's directory was refused.
func (s *Step) workDir() (string, error) {
	dir := s.spec.WorkDir
	if dir == "" {
		return "/tmp", nil
	}
	k := workDirKey{s.cred.uid, s.cred.gid, fmt.Sprint(s.cred.groups), dir}
	okDirs.Lock()
	at, seen := okDirs.m[k]
	okDirs.Unlock()
	if seen && time.Since(at) < userCacheTTL {
		return dir, nil
	}
	err := asUser(s.cred, func() error {
		var st unix.Stat_t
		if err := unix.Stat(dir, &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return unix.ENOTDIR
		}
		return unix.Faccessat(unix.AT_FDCWD, dir, unix.X_OK, unix.AT_EACCESS)
	})
	if err != nil {
		return "/tmp", err
	}
	okDirs.Lock()
	okDirs.m[k] = time.Now()
	okDirs.Unlock()
	return dir, nil
}

// okDirs remembers, for userCacheTTL (user.go), the working directories a user could enter:
// the shares of a wide step all check the same one, each in a thread of its own otherwise.
var okDirs = struct {
	sync.Mutex
	m map[workDirKey]time.Time
}{m: map[workDirKey]time.Time{}}

type workDirKey struct {
	uid, gid    uint32
	groups, dir string
}

// stdio is one task's three streams: the files the child gets, and what the parent closes
// or copies.
type stdio struct {
	child  [3]*os.File
	owned  []*os.File // child ends this package opened, closed after the fork
	pipes  [3]*os.File
	reader io.Reader
	writer [3]io.Writer
	pty    bool // the child's streams are a pseudo-terminal: it becomes its controlling terminal
}

// stdoutWriter is where a supervisor writes for the task's standard output before it runs
// (a task prolog's "print" lines): the stream to srun, or the task's file.
func (f *stdio) stdoutWriter() io.Writer {
	if f.writer[1] != nil {
		return f.writer[1]
	}
	return f.child[1]
}

func (f *stdio) closeChildEnds() {
	for _, c := range f.owned {
		c.Close()
	}
	f.owned = nil
}

// openStdio opens every task's files as the job's user; a path opened for several streams
// or tasks with the same mode is opened once and shared, so stdout and stderr to one file
// do not overwrite each other.
func (s *Step) openStdio() ([]*stdio, error) {
	out := make([]*stdio, len(s.spec.Tasks))
	var opened []*os.File
	fail := func(err error) ([]*stdio, error) {
		for _, f := range opened {
			f.Close()
		}
		for _, st := range out {
			if st != nil {
				for _, p := range st.pipes {
					if p != nil {
						p.Close()
					}
				}
			}
		}
		return nil, err
	}
	type key struct {
		path   string
		write  bool
		append bool
	}
	cache := map[key]*os.File{}
	// Opening /dev/null needs no switch to the user (everyone may, and it creates nothing):
	// srun's tasks, whose streams go to srun, skip the throw-away thread asUser costs.
	as := func(c cred, fn func() error) error { return fn() }
	for _, t := range s.spec.Tasks {
		for _, io := range []Stdio{t.Stdin, t.Stdout, t.Stderr} {
			if io.Reader == nil && io.Writer == nil && io.Path != "" && io.Path != os.DevNull {
				as = asUser
			}
		}
	}
	err := as(s.cred, func() error {
		for i, t := range s.spec.Tasks {
			st := &stdio{}
			out[i] = st
			for n, io := range []Stdio{t.Stdin, t.Stdout, t.Stderr} {
				if io.Reader != nil || io.Writer != nil {
					continue
				}
				path := io.Path
				if path == "" {
					path = os.DevNull
				}
				if !filepath.IsAbs(path) {
					path = filepath.Join(s.spec.WorkDir, path)
				}
				k := key{path, n > 0, io.Append}
				f := cache[k]
				if f == nil {
					var err error
					if n == 0 {
						f, err = os.Open(path)
					} else {
						flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
						if io.Append {
							flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
						}
						f, err = os.OpenFile(path, flag, 0666)
					}
					if err != nil {
						return fmt.Errorf("Could not open %s file %s: %s", streamName[n], path, strerror.Text(err))
					}
					cache[k] = f
					opened = append(opened, f)
				}
				st.child[n] = f
			}
		}
		return nil
	})
	if err != nil {
		return fail(fmt.Errorf("stepd: %v", err))
	}
	// Pipes for streams are made as the supervisor: they are not files in the user's name.
	for i, t := range s.spec.Tasks {
		st := out[i]
		if t.Pty != nil {
			// The terminal's master reads what the task writes, and a duplicate of it
			// takes the input, so that the end of srun's input does not close the terminal.
			master, slave, err := openPty(*t.Pty, s.cred.uid, s.cred.gid)
			if err != nil {
				return fail(fmt.Errorf("stepd: --pty: %v", err))
			}
			in, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
			if err != nil {
				master.Close()
				slave.Close()
				return fail(fmt.Errorf("stepd: --pty: %v", err))
			}
			st.child = [3]*os.File{slave, slave, slave}
			st.owned = append(st.owned, slave)
			st.pipes[1], st.writer[1] = master, t.Stdout.Writer
			if t.Stdin.Reader != nil {
				st.pipes[0], st.reader = os.NewFile(uintptr(in), "/dev/ptmx"), t.Stdin.Reader
			} else {
				unix.Close(in)
			}
			st.pty = true
			s.mu.Lock()
			s.ptyMaster = master
			s.mu.Unlock()
			continue
		}
		if t.Stdin.Reader != nil {
			r, w, err := os.Pipe()
			if err != nil {
				return fail(fmt.Errorf("stepd: pipe: %v", err))
			}
			st.child[0], st.pipes[0], st.reader = r, w, t.Stdin.Reader
			st.owned = append(st.owned, r)
		}
		for n, wr := range []io.Writer{nil, t.Stdout.Writer, t.Stderr.Writer} {
			if wr == nil {
				continue
			}
			r, w, err := os.Pipe()
			if err != nil {
				return fail(fmt.Errorf("stepd: pipe: %v", err))
			}
			st.child[n], st.pipes[n], st.writer[n] = w, r, wr
			st.owned = append(st.owned, w)
		}
	}
	// Labelled output goes through a pipe; the supervisor writes the file (label.go).
	kept := map[*os.File]*labelFile{}
	for i, t := range s.spec.Tasks {
		st := out[i]
		for n, io := range []Stdio{{}, t.Stdout, t.Stderr} {
			if io.Label == "" || io.Path == "" || st.child[n] == nil || st.child[n].Name() == os.DevNull {
				continue
			}
			lf := kept[st.child[n]]
			if lf == nil {
				lf = &labelFile{f: st.child[n]}
				kept[st.child[n]] = lf
			}
			r, w, err := os.Pipe()
			if err != nil {
				return fail(fmt.Errorf("stepd: pipe: %v", err))
			}
			st.child[n], st.pipes[n], st.writer[n] = w, r, &labeller{file: lf, label: io.Label}
			st.owned = append(st.owned, w)
		}
	}
	// Shared files are closed once, by the first task's stdio; labelled ones at the end.
	if len(out) > 0 {
		for _, f := range opened {
			if lf := kept[f]; lf != nil {
				s.labelled = append(s.labelled, lf)
				continue
			}
			out[0].owned = append(out[0].owned, f)
		}
	}
	return out, nil
}

var streamName = [3]string{"stdin", "stdout", "stderr"}

// fork starts one task. A task that cannot be executed exits with the errno as its exit
// code after an "execve(): ..." line on its stderr, as a Slurm task does.
func (s *Step) fork(t *task, st *stdio, cwd string, chdirErr error) {
	if chdirErr != nil {
		// Slurm 22.05 logs this twice (once in slurmstepd, once in the task before exec),
		// and both lines reach the task's stderr; scripts that grep output see both.
		msg := fmt.Sprintf("%s: error: couldn't chdir to `%s': %s: going to /tmp instead\n",
			s.spec.logPrefix(), s.spec.WorkDir, strerror.Text(chdirErr))
		s.writeStderr(st, msg+msg)
	}
	// One fork and one exec per task, as in Slurm: taskexec sets the task's own variables
	// (TaskPidEnv to its pid, Task.Env) in the child (see slurmd/taskexec).
	p := &taskexec.Proc{Path: t.Argv[0], Argv: t.Argv, Env: s.spec.Env, Extra: t.Env, PidVar: s.spec.TaskPidEnv,
		Dir: cwd, Files: [3]uintptr{st.child[0].Fd(), st.child[1].Fd(), st.child[2].Fd()}, Setsid: true,
		Rlimits: s.spec.taskRlimits(), StopAtExec: s.spec.StopAtExec}
	// A root job's batch script keeps the supervisor's own credentials, whatever group the
	// job has (sbatch --gid as root), as Slurm's batch step does; its files are still
	// created with the job's group (asUser). (Slurm's srun tasks of such a job get the
	// job's group as effective gid only; Orbit's get it as real and effective gid.)
	if s.cred.drop && !(s.cred.uid == 0 && s.spec.IsBatch()) {
		p.Cred = &taskexec.Cred{UID: s.cred.uid, GID: s.cred.gid, Groups: s.cred.groups}
	}
	p.Ctty = st.pty
	if t.Inherit != nil {
		p.Inherit = []uintptr{t.Inherit.Fd()}
		defer t.Inherit.Close() // the task has its own copy once forked
	}
	for n := range st.pipes {
		if st.pipes[n] != nil {
			t.pipes = append(t.pipes, st.pipes[n])
		}
	}
	env, extra, code := s.runTaskProlog(t, p.Env, p.Extra, st, cwd) // task_prolog.go
	if code != 0 {
		t.exit = &TaskExit{Rank: t.Rank, LocalID: t.LocalID, ExitCode: code & 0xff, Status: uint32(code&0xff) << 8}
		for _, p := range t.pipes {
			p.Close()
		}
		t.pipes = nil
		return
	}
	if t.LocalID == 0 && !s.spec.IsBatch() {
		extra = s.tmpdirEnv(env, extra, st) // task_tmpdir.go; the batch step's is set at launch
	}
	p.Env, p.Extra = env, extra
	pid, ch, err := forkRegistered(func() (int, error) { return taskexec.Start(p) })
	if err != nil {
		s.writeStderr(st, fmt.Sprintf("%s: error: execve(): %s: %s\n", s.spec.logPrefix(), t.Argv[0], strerror.Text(err)))
		code := 1
		var errno syscall.Errno
		if errors.As(err, &errno) {
			code = int(errno)
		}
		t.exit = &TaskExit{Rank: t.Rank, LocalID: t.LocalID, ExitCode: code & 0xff, Status: uint32(code&0xff) << 8}
		for _, p := range t.pipes {
			p.Close()
		}
		t.pipes = nil
		return
	}
	t.pid, t.status = pid, ch
	t.start = procStart(pid)
	s.startCopies(t, st)
}

// writeStderr writes a supervisor message where the task's stderr goes.
func (s *Step) writeStderr(st *stdio, msg string) {
	if w := st.writer[2]; w != nil {
		io.WriteString(w, msg)
		return
	}
	st.child[2].WriteString(msg)
}

// startCopies starts the goroutines that move streamed input and output.
func (s *Step) startCopies(t *task, st *stdio) {
	if st.reader != nil {
		w := st.pipes[0]
		go func() {
			io.Copy(w, st.reader)
			w.Close()
		}()
	}
	for n := 1; n < 3; n++ {
		if st.writer[n] == nil {
			continue
		}
		r, wr := st.pipes[n], st.writer[n]
		t.copies.Add(1)
		go func() {
			defer t.copies.Done()
			io.Copy(wr, r)
			if l, ok := wr.(*labeller); ok {
				l.flush()
			}
		}()
	}
}

// keepLog keeps where the first task's stderr goes, for the messages of StepSpec.PostTerm and Log:
// the stream's writer, or a duplicate of the file (the task's own copy is closed after the
// fork).
func (s *Step) keepLog(st *stdio) {
	if st.pty {
		// The terminal's output is the stream; a duplicate of its slave would keep it open.
		s.logOut = st.writer[1]
		return
	}
	if w := st.writer[2]; w != nil {
		s.logOut = w
		return
	}
	if st.child[2] == nil {
		return
	}
	fd, err := unix.FcntlInt(st.child[2].Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return
	}
	s.logFile = os.NewFile(uintptr(fd), st.child[2].Name())
	s.logOut = s.logFile
}

// joinCgroup moves the supervisor into the step's memory cgroup, so that the tasks it forks
// next start there, and returns what moves it out again. A cgroup that cannot be joined
// leaves the tasks unconfined, with a line in the supervisor's log.
func (s *Step) joinCgroup() (leave func()) {
	cg := s.spec.Cgroup
	if cg == nil {
		return func() {}
	}
	if err := cg.AddPid(os.Getpid()); err != nil {
		fmt.Fprintf(os.Stderr, "%s: error: cannot join memory cgroup %s, tasks run unconfined: %v\n", s.spec.logPrefix(), cg.Dir(), err)
		return func() {}
	}
	return func() {
		if err := cg.LeaveCgroup(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: error: cannot leave memory cgroup %s: %v\n", s.spec.logPrefix(), cg.Dir(), err)
		}
	}
}
