package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// selectPluginLines are what Slurm's scancel logs at verbose level when it loads the job
// table (its select plugins load to unpack it). Orbit has no such plugins but prints the
// same lines so that `scancel -v` output is the reference's.
var selectPluginLines = []string{
	"select/cons_tres: common_init: select/cons_tres loaded",
	"select/cray_aries: init: Cray/Aries node selection plugin loaded",
	"select/linear: init: Linear node selection plugin loaded with argument 1",
	"select/cons_res: common_init: select/cons_res loaded",
}

// byRecords is Slurm's path with filters, steps or a signal: load the job table, check the
// ids given, apply the filters, then cancel pending jobs before the others. false when the
// job table could not be loaded.
func (k *canceller) byRecords() bool {
	var rep wire.JobInfoReply
	if err := k.c.Call(k.ctx, wire.MsgJobInfo, &wire.JobInfoRequest{ShowAll: true}, &rep); err != nil {
		fmt.Fprintf(k.stderr, "slurm_load_jobs error: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	for _, l := range selectPluginLines {
		k.verbosef("%s", l)
	}
	jobs := rep.Jobs
	// The rounds below visit jobs in the controller's order, job id order, as Slurm's do.
	slices.SortStableFunc(jobs, func(a, b wire.JobInfo) int { return cmp.Compare(a.JobID, b.JobID) })
	live := make([]bool, len(jobs)) // Slurm's job_id != 0: still a candidate
	for i := range jobs {
		live[i] = !states.JobState(jobs[i].State).IsFinished()
	}
	pend := k.verifyIDs(jobs, live)
	if k.p.hasFilter() {
		k.filter(jobs, live)
	}
	k.cancelPass(jobs, live, pend, true)
	k.cancelPass(jobs, live, pend, false)
	return true
}

// matches is scancel's test of a target against one job record.
func (t target) matches(j *wire.JobInfo) bool {
	switch {
	case t.task == wire.NoVal:
		return t.id == j.JobID || (t.id == j.ArrayJobID && j.ArrayJobID != 0 && t.step == noStep)
	case t.task == allTasks:
		return t.id == j.ArrayJobID && j.ArrayJobID != 0
	case t.id != j.ArrayJobID || j.ArrayJobID == 0:
		return false
	}
	return j.ArrayTaskID == t.task || (j.ArrayTaskStr != "" && slices.Contains(expandTasks(j.ArrayTaskStr), t.task))
}

// verifyIDs reports every id that names no live job (Slurm's _verify_job_ids) and drops
// from the candidates the jobs no id names. It returns, per target, whether it names a
// pending job.
func (k *canceller) verifyIDs(jobs []wire.JobInfo, live []bool) []bool {
	p := k.p
	if len(p.targets) == 0 {
		return nil
	}
	found := make([]bool, len(p.targets))
	pend := make([]bool, len(p.targets))
	for i := range jobs {
		if !live[i] {
			continue
		}
		named := false
		for ti, t := range p.targets {
			if t.matches(&jobs[i]) {
				found[ti] = true
			}
			// As in Slurm 22.05, once an id was found, every later live record counts as
			// named by it too (its flag is not reset per record): such records stay
			// candidates, and a pending one sends the id through the pending round as well
			// (so "scancel J.S" acts on the step twice when pending jobs follow J).
			if found[ti] {
				if states.JobState(jobs[i].State).IsPending() {
					pend[ti] = true
				}
				named = true
			}
		}
		live[i] = named
	}
	for ti, t := range p.targets {
		if found[ti] {
			continue
		}
		k.keep(1)
		if p.verbose < 0 {
			continue
		}
		if t.step == noStep {
			k.errorf("Kill job error on job id %s: %s", t.jobString(), cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
		} else {
			k.errorf("Kill job error on job step id %s.%d: %s", t.jobString(), t.step, cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
		}
	}
	return pend
}

func (p *params) hasFilter() bool {
	return p.account != "" || p.name != "" || p.nodelist != "" || p.partition != "" || p.qos != "" ||
		p.reservation != "" || p.stateSet || p.userName != "" || p.wckey != ""
}

// filter keeps the candidates every filter selects (Slurm's _filter_job_records).
func (k *canceller) filter(jobs []wire.JobInfo, live []bool) {
	p := k.p
	var nodes []string
	if p.nodelist != "" {
		nodes, _ = hostlist.Expand(p.nodelist)
	}
	matches := 0
	for i := range jobs {
		if !live[i] {
			continue
		}
		j := &jobs[i]
		base := states.JobState(j.State).Base()
		keep := base == states.JobPending || base == states.JobRunning || base == states.JobSuspended
		keep = keep && (p.account == "" || j.Account == p.account)
		keep = keep && (p.name == "" || j.Name == p.name)
		keep = keep && (p.partition == "" || j.Partition == p.partition)
		keep = keep && (p.qos == "" || j.QOS == p.qos)
		keep = keep && (p.reservation == "" || j.Reservation == p.reservation)
		keep = keep && (!p.stateSet || base == p.state)
		keep = keep && (p.userName == "" || j.UserID == p.uid)
		if keep && p.nodelist != "" {
			jn, _ := hostlist.Expand(j.NodeList)
			keep = slices.ContainsFunc(jn, func(n string) bool { return slices.Contains(nodes, n) })
		}
		if keep && p.wckey != "" {
			key := j.WCKey
			// A wckey starting with '*' was applied by default; --wckey without '*' acts on
			// both, as in Slurm.
			if !strings.HasPrefix(p.wckey, "*") {
				key = strings.TrimPrefix(key, "*")
			}
			keep = key == p.wckey
		}
		live[i] = keep
		if keep {
			matches++
		}
	}
	if matches == 0 && p.verbose > 0 {
		var b strings.Builder
		add := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, "%s=%s ", k, v)
			}
		}
		add("account", p.account)
		add("job_name", p.name)
		add("nodelist", p.nodelist)
		add("partition", p.partition)
		add("qos", p.qos)
		add("reservation", p.reservation)
		if p.stateSet {
			add("state", p.state.String())
		}
		add("user_name", p.userName)
		add("wckey", p.wckey)
		k.errorf("No active jobs match ALL job filters, including: %s", b.String())
	}
}

// jobIDString is how scancel names a job record: "J", "J_T" or "J_[tasks]".
func jobIDString(j *wire.JobInfo) string {
	switch {
	case j.ArrayTaskStr != "":
		return fmt.Sprintf("%d_[%s]", j.ArrayJobID, j.ArrayTaskStr)
	case j.ArrayTaskID != wire.NoVal && j.ArrayJobID != 0:
		return fmt.Sprintf("%d_%d", j.ArrayJobID, j.ArrayTaskID)
	}
	return fmt.Sprint(j.JobID)
}

// cancelPass is one of Slurm's two rounds (_cancel_jobs_by_state): pending jobs first, then
// all that remain.
func (k *canceller) cancelPass(jobs []wire.JobInfo, live, pend []bool, pendingPass bool) {
	p := k.p
	if len(p.targets) == 0 {
		for i := range jobs {
			if !live[i] {
				continue
			}
			j := &jobs[i]
			if pendingPass && states.JobState(j.State) != states.JobPending {
				continue
			}
			if p.interactive && !k.confirm(j, noStep) {
				live[i] = false
				continue
			}
			k.cancelRecord(j, target{id: j.JobID, task: wire.NoVal, step: noStep})
			live[i] = false
		}
		return
	}
	for ti, t := range p.targets {
		if pendingPass && !pend[ti] {
			continue
		}
		for i := range jobs {
			if !live[i] {
				continue
			}
			j := &jobs[i]
			if t.step != noStep && states.JobState(j.State).IsPending() {
				continue
			}
			if !t.matches(j) {
				continue
			}
			if p.interactive && !k.confirm(j, t.step) {
				live[i] = false
				continue
			}
			if t.step == noStep {
				k.cancelRecord(j, t)
				live[i] = false
			} else {
				k.cancelStep(fmt.Sprint(j.JobID), j.JobID, t.step)
			}
		}
	}
}

// cancelRecord cancels the job a record stands for, named as scancel names it.
func (k *canceller) cancelRecord(j *wire.JobInfo, _ target) {
	t := target{id: j.JobID, task: wire.NoVal, step: noStep}
	if j.ArrayJobID != 0 && j.ArrayTaskStr == "" && j.ArrayTaskID != wire.NoVal {
		t = target{id: j.ArrayJobID, task: j.ArrayTaskID, step: noStep}
	} else if j.ArrayTaskStr != "" {
		t = target{id: j.ArrayJobID, task: wire.NoVal, step: noStep}
	}
	k.cancelJob(jobIDString(j), t)
}

// confirm asks "Cancel job_id=... [y/n]? " until the answer starts with y or n.
func (k *canceller) confirm(j *wire.JobInfo, step uint32) bool {
	for {
		if step == noStep {
			fmt.Fprintf(k.stdout, "Cancel job_id=%s name=%s partition=%s [y/n]? ", jobIDString(j), j.Name, j.Partition)
		} else {
			fmt.Fprintf(k.stdout, "Cancel step_id=%s.%d name=%s partition=%s [y/n]? ", jobIDString(j), step, j.Name, j.Partition)
		}
		line, err := k.stdin.ReadString('\n')
		if len(line) > 0 {
			switch line[0] {
			case 'y', 'Y':
				return true
			case 'n', 'N':
				return false
			}
		}
		if err != nil {
			return false // Slurm asks forever at end of input; Orbit takes it as "no"
		}
	}
}

// expandTasks lists the task ids of an array's pending-task string ("1-5%2", "1,3,7-9:2").
func expandTasks(s string) []uint32 {
	s, _, _ = strings.Cut(s, "%")
	var out []uint32
	for _, item := range strings.Split(s, ",") {
		rng, stepStr, hasStep := strings.Cut(item, ":")
		step := int64(1)
		if n, _, ok := strtol(stepStr); hasStep && ok && n > 0 {
			step = n
		}
		loStr, hiStr, isRange := strings.Cut(rng, "-")
		lo, _, ok := strtol(loStr)
		if !ok || lo < 0 {
			continue
		}
		hi := lo
		if h, _, ok := strtol(hiStr); isRange && ok && h >= lo {
			hi = h
		}
		for t := lo; t <= hi && len(out) < 1<<20; t += step {
			out = append(out, uint32(t))
		}
	}
	return out
}
