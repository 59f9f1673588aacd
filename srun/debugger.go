package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/orbit-hpc/orbit/srun/multiprog"
)

// proctable is srun --debugger-test's view of a parallel debug launch (Slurm's
// MPIR_proctable): the tasks wait stopped at their exec, each node's slurmstepd says where
// each of its tasks is (stepio.Pid), and once every task is known srun prints the table as
// Slurm's mpir_dump_proctable does, "task:N, host:NODE, pid:PID, executable:NAME". The tasks
// then run into the step's time limit, or until srun is interrupted.
type proctable struct {
	mu         sync.Mutex
	pids       map[uint32]uint32
	tasks      uint32
	executable func(rank uint32) string
	nodeOf     func(rank uint32) string
	out        io.Writer // nil with -Q
	printed    bool
}

// add records task rank's pid (the frame's data) and prints the table once it is complete.
func (p *proctable) add(rank uint32, data []byte) {
	if len(data) != 4 || rank >= p.tasks {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pids[rank] = binary.BigEndian.Uint32(data)
	if p.printed || uint32(len(p.pids)) < p.tasks {
		return
	}
	p.printed = true
	if p.out == nil {
		return
	}
	for r := uint32(0); r < p.tasks; r++ {
		fmt.Fprintf(p.out, "srun: task:%d, host:%s, pid:%d, executable:%s\n", r, p.nodeOf(r), p.pids[r], p.executable(r))
	}
}

// executableOf names each task's program in the proctable: the command, or with
// --multi-prog the program the configuration gives the task's rank, as written there
// (Slurm's mpir_set_multi_name; "(null)" for a rank it does not cover).
func executableOf(command string, multiProg bool, config string) func(rank uint32) string {
	if !multiProg {
		return func(uint32) string { return command }
	}
	return func(rank uint32) string {
		argv, err := multiprog.TaskArgv(config, int(rank), nil)
		if err != nil || len(argv) == 0 {
			return "(null)"
		}
		return argv[0]
	}
}
