package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// writeResizeFiles is Slurm's _update_job_size after `update JobId= NumNodes=` resized a
// job: inside a job (SLURM_JOBID set) scontrol writes slurm_job_<id>_resize.sh and .csh in
// the working directory, setting the job's node variables that the environment has to the
// allocation's new values (and unsetting the task counts, which it cannot recompute), and
// says how to use them.
func (c *cli) writeResizeFiles(jobID uint32) {
	if _, ok := os.LookupEnv("SLURM_JOBID"); !ok {
		return // no job environment here to update
	}
	var info wire.JobAllocInfo
	if e := c.call(wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: jobID}, &info); e != nil {
		if e.Errno != cmdclient.ErrnoAlreadyDone {
			c.perror("slurm_allocation_lookup", e)
			return
		}
		info = wire.JobAllocInfo{} // sized down to nothing: not an error
	}
	csh := fmt.Sprintf("slurm_job_%d_resize.csh", jobID)
	sh := fmt.Sprintf("slurm_job_%d_resize.sh", jobID)
	os.Remove(csh)
	os.Remove(sh)
	var bsh, bcsh strings.Builder
	set := func(name, value string, quoted bool) {
		if _, ok := os.LookupEnv(name); !ok {
			return
		}
		if quoted {
			value = `"` + value + `"`
		}
		fmt.Fprintf(&bsh, "export %s=%s\n", name, value)
		fmt.Fprintf(&bcsh, "setenv %s %s\n", name, value)
	}
	set("SLURM_NODELIST", info.NodeList, true)
	set("SLURM_JOB_NODELIST", info.NodeList, true)
	set("SLURM_NNODES", fmt.Sprint(len(info.Nodes)), false)
	set("SLURM_JOB_NUM_NODES", fmt.Sprint(len(info.Nodes)), false)
	set("SLURM_JOB_CPUS_PER_NODE", cmdclient.RepeatCounts(info.CPUsPerNode), true)
	if _, ok := os.LookupEnv("SLURM_TASKS_PER_NODE"); ok {
		for _, name := range []string{"SLURM_NPROCS", "SLURM_NTASKS", "SLURM_TASKS_PER_NODE"} {
			fmt.Fprintf(&bsh, "unset %s\n", name)
			fmt.Fprintf(&bcsh, "unsetenv %s\n", name)
		}
	}
	for _, f := range []struct{ name, text string }{{csh, bcsh.String()}, {sh, bsh.String()}} {
		if err := os.WriteFile(f.name, []byte(f.text), 0o700); err != nil {
			c.eprintf("Could not create file %s: %s\n", f.name, strerror.Text(err))
			return
		}
		os.Chmod(f.name, 0o700) // whatever the umask, as Slurm's chmod
	}
	c.printf("To reset Slurm environment variables, execute\n")
	c.printf("  For bash or sh shells:  . ./%s\n", sh)
	c.printf("  For csh shells:         source ./%s\n", csh)
}
