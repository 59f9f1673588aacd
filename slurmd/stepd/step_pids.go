package stepd

import "slices"

// ProcTree is the machine's processes by parent: each pid's children, in pid order. One
// walk of /proc serves every step a query looks at.
type ProcTree map[int][]int

// ReadProcTree walks /proc once.
func ReadProcTree() ProcTree {
	tree := ProcTree{}
	procs := allProcs()
	slices.SortFunc(procs, func(a, b procInfo) int { return a.pid - b.pid })
	for _, p := range procs {
		tree[p.ppid] = append(tree[p.ppid], p.pid)
	}
	return tree
}

// StepProcesses lists what scontrol listpids shows of a running step: its tasks still
// running (as the state records them), then the other processes the step holds, deepest
// first, as Slurm's proctrack/linuxproc lists a step's tree. The tree is the supervisor's
// descendants, or, when the supervisor runs several steps (shared is true: the shares of a
// wide step), the tasks' descendants only.
func StepProcesses(st *State, shared bool, children ProcTree) (tasks []TaskState, others []int) {
	isTask := map[int]bool{}
	for _, t := range st.Tasks {
		p, err := readProc(t.Pid)
		if err != nil || p.start != t.PidStart || p.state == 'Z' || p.state == 'X' {
			continue // ended (or the pid is another process's now)
		}
		tasks = append(tasks, t)
		isTask[t.Pid] = true
	}
	level := []int{st.Pid}
	if shared {
		level = nil
		for _, t := range tasks {
			level = append(level, t.Pid)
		}
	}
	var levels [][]int
	seen := map[int]bool{st.Pid: true}
	for len(level) > 0 {
		var next, keep []int
		for _, pid := range level {
			for _, c := range children[pid] {
				if seen[c] {
					continue
				}
				seen[c] = true
				next = append(next, c)
				if !isTask[c] {
					keep = append(keep, c)
				}
			}
		}
		levels = append(levels, keep)
		level = next
	}
	for i := len(levels) - 1; i >= 0; i-- {
		others = append(others, levels[i]...)
	}
	return tasks, others
}

// StepHolds reports whether pid is the step's supervisor, one of its tasks or a process of
// its tree (scontrol pidinfo).
func StepHolds(st *State, shared bool, pid int, children ProcTree) bool {
	if pid == st.Pid && !shared {
		return Alive(st)
	}
	tasks, others := StepProcesses(st, shared, children)
	for _, t := range tasks {
		if t.Pid == pid {
			return true
		}
	}
	return slices.Contains(others, pid)
}
