// Command sched_builtin is the sched/builtin scheduler plugin (SchedulerType=sched/builtin):
// strict priority order, as Slurm's builtin scheduler. slurmctld starts it; it is not run by
// hand.
package main

import (
	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func main() {
	scheduler.ServeNew(func(cfg scheduler.Config) (scheduler.Scheduler, error) {
		return builtin.New(cfg), nil
	})
}
