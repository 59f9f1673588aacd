package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/orbit-hpc/orbit/compat/filepattern"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// ioPlan is where each task's standard streams go (srun -o/-e/-i), decided as Slurm's srun
// does (compat/filepattern.SrunExpand): through srun to its terminal or to one file srun
// opens (IOAll), only one task's through srun (IOOne: "-o 3"), or a file per task that the
// task's slurmstepd opens (IOPerTask, and "none" as /dev/null). Without -e, stderr follows
// -o; stdin goes to every task by default, as in Slurm 22.05.
type ioPlan struct {
	out, err, in   filepattern.SrunFile
	stdout, stderr io.Writer // where streamed output is printed
	stdinFile      *os.File  // -i naming one file srun reads for every task
	files          []*os.File
	errFollowsOut  bool
	stdinNodes     map[uint32]bool // node ids with a task reading srun's stdin
	anyStdin       bool
}

// newIOPlan interprets -o/-e/-i for the step and opens srun's own files.
func newIOPlan(o *options, step *wire.StepCreateReply, stdout, stderr io.Writer) (*ioPlan, error) {
	f := filepattern.Fields{JobID: step.JobID, StepID: strconv.FormatUint(uint64(step.StepID), 10),
		JobName: os.Getenv("SLURM_JOB_NAME"), ArrayTaskID: 4294967294}
	if f.JobName == "" {
		f.JobName = o.jobName
	}
	if u, err := userdb.Current(); err == nil {
		f.User = u.Username
	}
	if v, err := strconv.ParseUint(os.Getenv("SLURM_ARRAY_JOB_ID"), 10, 32); err == nil {
		f.ArrayJobID, f.IsArray = uint32(v), true
	}
	if v, err := strconv.ParseUint(os.Getenv("SLURM_ARRAY_TASK_ID"), 10, 32); err == nil {
		f.ArrayTaskID = uint32(v)
	}
	n := int(step.NumTasks)
	p := &ioPlan{out: filepattern.SrunExpand(o.output, f, n), in: filepattern.SrunExpand(o.input, f, n),
		stdout: stdout, stderr: stderr, stdinNodes: map[uint32]bool{}}
	p.errFollowsOut = o.errorf == ""
	if p.errFollowsOut {
		p.err = p.out
		if p.out.Type == filepattern.IOOne {
			// Slurm's srun then prints the one task's stderr on its stdout, with its output.
			p.stderr = p.stdout
		}
	} else {
		p.err = filepattern.SrunExpand(o.errorf, f, n)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if o.openMode == jobspec.OpenModeAppend {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	open := func(name string) (*os.File, error) {
		fh, err := os.OpenFile(name, flags, 0o666)
		if err != nil {
			return nil, fmt.Errorf("Could not open stdout file: %v", err)
		}
		p.files = append(p.files, fh)
		return fh, nil
	}
	if p.out.Type == filepattern.IOAll && p.out.Name != "" {
		fh, err := open(p.out.Name)
		if err != nil {
			p.close()
			return nil, err
		}
		p.stdout = fh
		if p.errFollowsOut {
			p.stderr = fh
		}
	}
	if !p.errFollowsOut && p.err.Type == filepattern.IOAll && p.err.Name != "" {
		fh, err := open(p.err.Name)
		if err != nil {
			p.close()
			return nil, err
		}
		p.stderr = fh
	}
	if p.in.Type == filepattern.IOAll && p.in.Name != "" {
		fh, err := os.Open(p.in.Name)
		if err != nil {
			p.close()
			return nil, fmt.Errorf("Could not open stdin file: %v", err)
		}
		p.stdinFile = fh
		p.files = append(p.files, fh)
	}
	return p, nil
}

// taskName is what one task's stream is on the node: "" streams through srun.
func taskName(sf filepattern.SrunFile, rank uint32) string {
	switch sf.Type {
	case filepattern.IOOne:
		if int(rank) == sf.TaskID {
			return ""
		}
		return os.DevNull
	case filepattern.IOPerTask:
		return sf.Name
	}
	return ""
}

// fill sets node id's per-task stream names in its launch message.
func (p *ioPlan) fill(m *wire.LaunchTasks, node uint32) {
	m.StdOut, m.StdErr, m.StdIn = nil, nil, nil
	for _, r := range m.Ranks {
		m.StdOut = append(m.StdOut, taskName(p.out, r))
		m.StdErr = append(m.StdErr, taskName(p.err, r))
		in := taskName(p.in, r)
		m.StdIn = append(m.StdIn, in)
		if in == "" {
			p.stdinNodes[node] = true
			p.anyStdin = true
		}
	}
	m.StdinRank = -1
}

func (p *ioPlan) close() {
	for _, f := range p.files {
		f.Close()
	}
	p.files = nil
}
