package main

import (
	"fmt"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Special values of target fields, as Slurm's scancel keeps them.
const (
	allTasks  = wire.Infinite // "J_*": every task of array J
	noStep    = 0xfffffffe    // SLURM_BATCH_SCRIPT in scancel's table: the job itself, no step
	maxTarget = 0xffff        // scancel's table size
)

// target is one job id operand: a job, one array task ("J_T", each task of "J_[1-3]"), every
// task ("J_*"), or one step ("J.S", "J_T.S").
type target struct {
	id   uint32
	task uint32 // wire.NoVal: the job itself / every task of array id; allTasks: "J_*"
	step uint32 // noStep: the job
}

// jobString is the job part as scancel prints it: "J", "J_T" or "J_*".
func (t target) jobString() string {
	switch t.task {
	case wire.NoVal:
		return fmt.Sprint(t.id)
	case allTasks:
		return fmt.Sprintf("%d_*", t.id)
	}
	return fmt.Sprintf("%d_%d", t.id, t.task)
}

// String is the whole operand: jobString, then ".S" for a step.
func (t target) String() string {
	if t.step == noStep {
		return t.jobString()
	}
	return fmt.Sprintf("%s.%d", t.jobString(), t.step)
}

// parseIDs turns scancel's operands into targets as Slurm's _xlate_job_step_ids does:
// "J", "J_T", "J_*", "J_[list]" (no step), "J+H" (a heterogeneous component: the job),
// each optionally ".S"; a comma after an id starts the next one. raw are the operands after
// the comma split, which the no-filter path sends as they are. An operand that is none of
// these is "Invalid job id <operand>".
func parseIDs(args []string) (targets []target, raw []string, err error) {
	queue := append([]string(nil), args...)
	for len(queue) > 0 && len(targets) < maxTarget {
		arg := queue[0]
		queue = queue[1:]
		raw = append(raw, arg)
		bad := fmt.Errorf("Invalid job id %s", arg)
		id, rest, _ := strtol(arg)
		if id <= 0 || id >= int64(wire.NoVal) {
			return nil, nil, bad
		}
		t := target{id: uint32(id), task: wire.NoVal, step: noStep}
		switch {
		case strings.HasPrefix(rest, "_["):
			end := strings.IndexByte(rest[2:], ']')
			if end < 0 || 2+end+1 != len(rest) {
				return nil, nil, bad
			}
			tasks, herr := hostlist.Expand(rest[1:])
			if herr != nil {
				return nil, nil, bad
			}
			for _, ts := range tasks {
				n, _, _ := strtol(ts)
				if n < 0 {
					return nil, nil, bad
				}
				targets = append(targets, target{id: uint32(id), task: uint32(n), step: noStep})
				if len(targets) >= maxTarget {
					break
				}
			}
			continue // no step for a task range
		case strings.HasPrefix(rest, "_*"):
			t.task, rest = allTasks, rest[2:]
		case strings.HasPrefix(rest, "_"):
			n, r, _ := strtol(rest[1:])
			if n < 0 || n >= int64(wire.NoVal) {
				return nil, nil, bad
			}
			t.task, rest = uint32(n), r
		case strings.HasPrefix(rest, "+"):
			n, r, _ := strtol(rest[1:])
			if n < 0 {
				return nil, nil, bad
			}
			rest = r
		}
		if strings.HasPrefix(rest, ".") {
			n, r, _ := strtol(rest[1:])
			if n < 0 || n >= noStep {
				return nil, nil, bad
			}
			t.step, rest = uint32(n), r
		}
		targets = append(targets, t)
		switch {
		case strings.HasPrefix(rest, ","):
			raw[len(raw)-1] = arg[:len(arg)-len(rest)]
			queue = append([]string{rest[1:]}, queue...)
		case rest != "":
			return nil, nil, bad
		}
	}
	return targets, raw, nil
}

// strtol parses a leading decimal number as C's strtol does (leading blanks, a sign); rest
// is what follows. ok is false when no digits were found (the number is then 0).
func strtol(s string) (n int64, rest string, ok bool) {
	i, neg := 0, false
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < 1<<40 {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s, false
	}
	if neg {
		n = -n
	}
	return n, s[i:], true
}
