package main

import (
	"os"
	"strconv"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// `scontrol write batch_script JOBID [FILE]` (Slurm's scontrol_batch_script in info_job.c).
// Slurm's quirks are kept because scripts rely on the exit status: every failure after the
// arguments are accepted (unknown job, someone else's job, a job without a script, a file
// that cannot be opened) prints a line on stderr and still exits 0; the job id is read with
// atoll, so "12x" is job 12 and "abc" is job 0 (which no job has).

// cmdWrite is `write batch_script ...` and `write config`.
func (c *cli) cmdWrite(argv []string) {
	tag := argv[0]
	switch {
	case len(argv) < 2:
		c.tooMany(tag, "too few arguments for keyword:%s\n")
	case abbrev(argv[1], "batch_script", 5):
		if len(argv) > 4 {
			c.tooMany(tag, "too many arguments for keyword:%s\n")
			return
		}
		c.writeBatchScript(argv[2:])
	case abbrev(argv[1], "config", 6):
		if len(argv) > 3 {
			c.tooMany(tag, "too many arguments for keyword:%s\n")
			return
		}
		file := ""
		if len(argv) == 3 {
			file = argv[2]
		}
		c.writeConfig(file) // write_config.go
	default:
		c.exitCode = 1
		c.eprintf("invalid write argument:%s\n", argv[1])
	}
}

// writeBatchScript fetches the script of job args[0] and writes it to args[1] (default
// slurm-JOBID.sh; "-" is stdout).
func (c *cli) writeBatchScript(args []string) {
	if len(args) < 1 {
		return // Slurm returns without a word and exit status 0
	}
	jobID := uint32(atoll(args[0]))
	name := "slurm-" + strconv.FormatUint(uint64(jobID), 10) + ".sh"
	if len(args) > 1 {
		name = args[1]
	}
	// Slurm opens (and truncates) the file before it asks, and removes it when the answer is
	// an error, so a failed request leaves no file of that name behind.
	var f *os.File
	if name != "-" {
		var err error
		if f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666); err != nil {
			c.eprintf("failed to open file `%s`: %s\n", name, strerror.Text(err))
			return
		}
	}
	var rep wire.BatchScriptReply
	e := c.call(wire.MsgBatchScript, &wire.BatchScriptRequest{JobID: jobID}, &rep)
	if e == nil {
		if f == nil {
			c.stdout.WriteString(rep.Script)
		} else if _, err := f.WriteString(rep.Script); err != nil {
			e = &cmdclient.Error{Errno: wire.ErrnoSlurmError, Text: strerror.Text(err)}
		}
	}
	if f != nil {
		if err := f.Close(); err != nil && e == nil {
			e = &cmdclient.Error{Errno: wire.ErrnoSlurmError, Text: strerror.Text(err)}
		}
	}
	if e != nil {
		if f != nil {
			os.Remove(name)
		}
		// slurm_perror: printed even with -Q, and the exit status stays 0.
		c.eprintf("job script retrieval failed: %s\n", e.Text)
		return
	}
	if f != nil && c.quiet != 1 {
		c.stdout.WriteString("batch script for job " + strconv.FormatUint(uint64(jobID), 10) + " written to " + name + "\n")
	}
}

// atoll is C's atoll as Slurm applies it to a job id: leading blanks, an optional sign, then
// digits up to the first other byte; no digits is 0. Overflow saturates as glibc's strtoll.
func atoll(s string) int64 {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var n uint64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n > (1<<63)/10 {
			n = 1 << 63
			continue
		}
		n = n*10 + uint64(s[i]-'0')
	}
	switch {
	case neg && n >= 1<<63:
		return -1 << 63
	case neg:
		return -int64(n)
	case n >= 1<<63:
		return 1<<63 - 1
	}
	return int64(n)
}
