package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// propagatingLines are sbatch -vvv's debug lines for what it propagates to the job (Slurm's
// _set_rlimit_env, _set_prio_process_env and _set_umask_env): each limit of rl
// (SLURM_RLIMIT_<NAME>=<value>), its scheduling priority and its umask.
func propagatingLines(rl []string) string {
	var b strings.Builder
	for _, kv := range rl {
		name, val, _ := strings.Cut(strings.TrimPrefix(kv, "SLURM_"), "=")
		fmt.Fprintf(&b, "sbatch: debug:  propagating %s=%s\n", name, strings.TrimPrefix(val, "U"))
	}
	fmt.Fprintf(&b, "sbatch: debug:  propagating SLURM_PRIO_PROCESS=%d\n", prioProcess(os.Getpid()))
	um := syscall.Umask(0)
	syscall.Umask(um)
	fmt.Fprintf(&b, "sbatch: debug:  propagating UMASK=%04o\n", um)
	return b.String()
}
