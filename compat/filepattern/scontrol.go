package filepattern

import (
	"strconv"
	"strings"
)

// ShowPath is the StdOut=/StdErr=/StdIn= value `scontrol show job` prints for a pattern
// (Slurm's _fname_format in the job-info API): only %A, %a, %j, %u and %x are replaced, every
// occurrence, in that order, without widths or %% handling; a relative result is joined to
// workDir with '/'. Other letters, widths and backslashes are printed as stored.
func ShowPath(pattern, workDir string, f Fields) string {
	s := pattern
	arrayJob := f.JobID
	if f.IsArray {
		arrayJob = f.ArrayJobID
	}
	s = strings.ReplaceAll(s, "%A", strconv.FormatUint(uint64(arrayJob), 10))
	s = strings.ReplaceAll(s, "%a", strconv.FormatUint(uint64(f.ArrayTaskID), 10))
	s = strings.ReplaceAll(s, "%j", strconv.FormatUint(uint64(f.JobID), 10))
	s = strings.ReplaceAll(s, "%u", f.User)
	s = strings.ReplaceAll(s, "%x", f.JobName)
	if strings.HasPrefix(s, "/") {
		return s
	}
	return workDir + "/" + s
}

// ShowDefaultStdout is the StdOut= (and StdErr=) `scontrol show job` prints for a batch job
// submitted without -o: workDir/slurm-<job>.out, or workDir/slurm-<array job>_<task>.out for
// an array task. A pending array's unsplit record has no task id of its own (NoVal), so the
// reference prints e.g. slurm-684_4294967294.out for it: pass ArrayTaskID as the record has it.
func ShowDefaultStdout(workDir string, f Fields) string {
	if f.IsArray {
		return workDir + "/slurm-" + strconv.FormatUint(uint64(f.ArrayJobID), 10) + "_" +
			strconv.FormatUint(uint64(f.ArrayTaskID), 10) + ".out"
	}
	return workDir + "/slurm-" + strconv.FormatUint(uint64(f.JobID), 10) + ".out"
}
