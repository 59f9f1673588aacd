package cmdclient

import (
	"fmt"
	"io"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
)

// ClusterUnreachable prints what Slurm 22.05's commands print when -M/--clusters (or
// SLURM_CLUSTERS) names clusters they cannot look up: slurmdb_get_info_cluster fails and
// print_db_notok says why. Orbit keeps no registry of clusters a command could ask (no
// slurmdbd), so every name fails exactly as it does against a Slurm without a database, the
// local cluster's name included; the caller then exits (1, or sbatch, salloc and srun's
// SLURM_EXIT_ERROR code where Slurm uses it). fromEnv names SLURM_CLUSTERS in the message:
// squeue, scontrol, sdiag, sinfo and sprio say so for the variable, while sbatch, srun,
// salloc and scancel always say --cluster.
func ClusterUnreachable(w io.Writer, prog, names string, fromEnv bool) {
	fmt.Fprintf(w, "%s: error: Problem talking to database\n", prog)
	if strings.EqualFold(names, "all") {
		fmt.Fprintf(w, "%s: error: No clusters can be reached now. Contact your admin to resolve the problem.\n", prog)
		return
	}
	from := "--cluster"
	if fromEnv {
		from = "SLURM_CLUSTERS"
	}
	fmt.Fprintf(w, "%s: error: '%s' can't be reached now, or it is an invalid entry for %s.  Use 'sacctmgr list clusters' to see available clusters.\n", prog, names, from)
}

// AccountingPluginLine is the line Slurm's commands print at verbose level when they load
// the accounting storage plugin (to look clusters up, or sacct to read jobs); "" for
// Orbit's embedded accounting, which loads nothing.
func AccountingPluginLine(prog string, c *conf.Config) string {
	switch c.AccountingStorageType {
	case conf.AccountingNone:
		return prog + ": accounting_storage/none: init: Accounting storage NOT INVOKED plugin loaded\n"
	case conf.AccountingSlurmdbd:
		return prog + ": accounting_storage/slurmdbd: init: Accounting storage SLURMDBD plugin loaded\n"
	}
	return ""
}
