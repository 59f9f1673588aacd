// Command sched_backfill is the sched/backfill scheduler plugin (SchedulerType=sched/backfill,
// the default): priority order plus backfill, as Slurm's backfill scheduler. slurmctld starts
// it; it is not run by hand.
package main

import (
	"github.com/orbit-hpc/orbit/plugins/sched/backfill"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func main() { scheduler.ServeNew(backfill.New) }
