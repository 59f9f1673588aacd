// Command sched_faulty is the faulty scheduler plugin's executable (tests only).
package main

import (
	"github.com/orbit-hpc/orbit/plugins/scheduler"
	"github.com/orbit-hpc/orbit/plugins/scheduler/internal/faulty"
)

func main() { scheduler.Serve(faulty.New()) }
