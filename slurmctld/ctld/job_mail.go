package ctld

import (
	"fmt"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/states"
)

// Job mail: slurmctld runs MailProg for the events a job's --mail-type names, as Slurm's
// mail_job_info: `MailProg -s "<subject>" <mail user>`, with job_common_env_vars plus
// SLURM_JOB_STATE, SLURM_JOB_MAIL_TYPE and the event's times and exit code, as
// slurmctld's user, bounded by two minutes, outside the state lock; a failure is logged.
//
//	Slurm Job_id=7 Name=run Began, Queued time 00:00:01
//	Slurm Job_id=7 Name=run Ended, Run time 00:01:02, COMPLETED, ExitCode 0
//	Slurm Job_id=7 Name=run Failed, Run time 00:10:00, TIMEOUT, ExitCode 0
//	Slurm Array Task Job_id=7_2 (9) Name=run Began, Queued time 00:00:01   (ARRAY_TASKS)
//	Slurm Array Summary Job_id=7_* (7) Name=run Ended, COMPLETED, ExitCode [0-0]
//
// The events are the job's transitions as the apply path installs them (mailTransition):
// BEGIN as it starts, END when it completes or is cancelled, FAIL when it ends FAILED,
// TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE or OUT_OF_MEMORY, REQUEUE when it is
// requeued; and TIME_LIMIT_50/80/90/100 as a running job reaches that share of its limit
// (mailTimeLimits, from the time-limit check). An array's tasks mail one summary (BEGIN with
// the first task, END or FAIL after the last) unless ARRAY_TASKS asks for each task's.
// Which time-limit mails a job was sent is kept in memory only: after a restart of
// slurmctld one may come again.

// mailProgTimeout bounds MailProg (Slurm's MAIL_PROG_TIMEOUT).
const mailProgTimeout = 120 * time.Second

// mailSent is the time-limit mails each running job was sent (mail type bits).
type mailSent struct {
	mu   sync.Mutex
	sent map[uint32]uint16
}

// mark records that job id was sent bit and says whether it had been already.
func (m *mailSent) mark(id uint32, bit uint16) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sent == nil {
		m.sent = map[uint32]uint16{}
	}
	had := m.sent[id]&bit != 0
	m.sent[id] |= bit
	return had
}

func (m *mailSent) forget(id uint32) {
	m.mu.Lock()
	delete(m.sent, id)
	m.mu.Unlock()
}

// mailUser is the address a job's mail goes to: --mail-user, else the job's user, with
// "@MailDomain" when that is set (Slurm's _get_mail_user).
func (c *Controller) mailUser(j *jobRecord) string {
	if u := j.descStr(descMailUser); u != "" {
		return u
	}
	name := c.names.user(j.UserID)
	if d, _ := c.config().Get("MailDomain"); d != "" {
		return name + "@" + d
	}
	return name
}

// mailTransition mails what job n's change from old (nil: a new record) is an event for,
// under the write lock (apply). An array task split from its array's pending record as it
// starts is new but was pending.
func (c *Controller) mailTransition(old, n *jobRecord) {
	typ := uint16(n.descUint(descMailType))
	if typ == 0 || typ == noVal16 || c.config().MailProg == "" {
		return
	}
	if old == nil {
		if n.ArrayJobID == 0 {
			return // a submission
		}
		old = &jobRecord{State: uint32(states.JobPending), Restarts: n.Restarts}
	}
	was, is := old.state(), n.state()
	switch {
	case was.IsPending() && is.Base() == states.JobRunning:
		if typ&jobspec.MailBegin != 0 && (typ&jobspec.MailArrayTasks != 0 || n.ArrayJobID == 0 || c.firstArrayTask(n)) {
			c.mailJob(n, jobspec.MailBegin)
		}
	case !was.IsFinished() && is.IsFinished():
		c.mailTimes.forget(n.JobID)
		c.mailEnd(n, typ)
	case !was.IsPending() && is.IsPending() && n.Restarts > old.Restarts:
		c.mailTimes.forget(n.JobID)
		if typ&jobspec.MailRequeue != 0 {
			c.mailJob(n, jobspec.MailRequeue)
		}
	}
}

// mailEnd mails the end of job n (END or FAIL), or of its array once its last task ended.
func (c *Controller) mailEnd(n *jobRecord, typ uint16) {
	base := n.state().Base()
	if n.ArrayJobID != 0 && typ&jobspec.MailArrayTasks == 0 {
		if !c.arrayFinished(n) {
			return
		}
		lo, hi, failed := c.arrayExitCodes(n.ArrayJobID)
		switch {
		case failed && typ&jobspec.MailFail != 0:
			c.mailJob(n, jobspec.MailFail, lo, hi)
		case typ&jobspec.MailEnd != 0:
			c.mailJob(n, jobspec.MailEnd, lo, hi)
		}
		return
	}
	if typ&jobspec.MailFail != 0 && base >= states.JobFailed {
		c.mailJob(n, jobspec.MailFail)
	}
	if typ&jobspec.MailEnd != 0 && (base == states.JobComplete || base == states.JobCancelled) {
		c.mailJob(n, jobspec.MailEnd)
	}
}

// firstArrayTask says whether task n is the first of its array to start.
func (c *Controller) firstArrayTask(n *jobRecord) bool {
	for _, j := range c.t.jobs {
		if j.ArrayJobID == n.ArrayJobID && j.JobID != n.JobID && !j.isArrayRecord() && j.StartTime != 0 {
			return false
		}
	}
	return true
}

// arrayFinished says whether every task of n's array has ended, n included.
func (c *Controller) arrayFinished(n *jobRecord) bool {
	for _, j := range c.t.jobs {
		if j.ArrayJobID == n.ArrayJobID && j.JobID != n.JobID && (j.isArrayRecord() || !j.state().IsFinished()) {
			return false
		}
	}
	return true
}

// arrayExitCodes is the lowest and highest exit status of an array's ended tasks and
// whether one exited nonzero (Slurm's array_recs min/max_exit_code).
func (c *Controller) arrayExitCodes(arrayID uint32) (lo, hi uint32, failed bool) {
	first := true
	for _, j := range c.t.jobs {
		if j.ArrayJobID != arrayID || j.isArrayRecord() {
			continue
		}
		if first || j.ExitCode < lo {
			lo = j.ExitCode
		}
		if first || j.ExitCode > hi {
			hi = j.ExitCode
		}
		first = false
		if ws := syscall.WaitStatus(j.ExitCode); ws.Exited() && ws.ExitStatus() != 0 {
			failed = true
		}
	}
	return lo, hi, failed
}

// mailTypeWord is the event as the subject names it (Slurm's _mail_type_str).
func mailTypeWord(typ uint16) string {
	switch typ {
	case jobspec.MailInvalidDepnd:
		return "Invalid dependency"
	case jobspec.MailBegin:
		return "Began"
	case jobspec.MailEnd:
		return "Ended"
	case jobspec.MailFail:
		return "Failed"
	case jobspec.MailRequeue:
		return "Requeued"
	case jobspec.MailStageOut:
		return "StageOut/Teardown"
	case jobspec.MailTime100:
		return "Reached time limit"
	case jobspec.MailTime90:
		return "Reached 90% of time limit"
	case jobspec.MailTime80:
		return "Reached 80% of time limit"
	case jobspec.MailTime50:
		return "Reached 50% of time limit"
	}
	return "unknown"
}

// mailJob runs MailProg for event typ of job j (under the lock; the program runs in the
// background). An array summary passes its tasks' lowest and highest exit status.
func (c *Controller) mailJob(j *jobRecord, typ uint16, summary ...uint32) {
	now := c.now().Unix()
	arraySummary := j.ArrayJobID != 0 && uint16(j.descUint(descMailType))&jobspec.MailArrayTasks == 0
	if m := c.t.jobs[j.ArrayJobID]; arraySummary && m != nil {
		j = m // the array's own record, as Slurm's mail goes out for its master job
	}
	complete := typ == jobspec.MailEnd || typ == jobspec.MailFail
	env := c.jobCommonEnv(j, complete)
	set := func(k, v string) { env = append(env, k+"="+v) }
	set("SLURM_JOB_STATE", j.state().Base().String())
	set("SLURM_JOB_MAIL_TYPE", mailTypeWord(typ))
	var times, term string
	switch {
	case typ == jobspec.MailBegin && j.StartTime != 0 && j.SubmitTime != 0:
		t := slurmtime.FormatElapsed(j.StartTime - j.SubmitTime)
		times = ", Queued time " + t
		set("SLURM_JOB_QUEUED_TIME", t)
	case (complete || typ == jobspec.MailRequeue) && j.StartTime != 0 && j.EndTime != 0:
		t := slurmtime.FormatElapsed(j.runSeconds(j.EndTime))
		times = ", Run time " + t
		set("SLURM_JOB_RUN_TIME", t)
	case typ&(jobspec.MailTime100|jobspec.MailTime90|jobspec.MailTime80|jobspec.MailTime50) != 0 && j.StartTime != 0:
		t := slurmtime.FormatElapsed(j.runSeconds(now))
		times = ", Run time " + t
		set("SLURM_JOB_RUN_TIME", t)
	}
	stateWord := j.state().Base().String()
	if complete && len(summary) == 2 {
		lo, hi := syscall.WaitStatus(summary[0]), syscall.WaitStatus(summary[1])
		switch {
		case lo.Exited() && hi.Exited():
			if lo.ExitStatus() == 0 && hi.ExitStatus() > 0 {
				stateWord = "Mixed"
			}
			term = fmt.Sprintf(", %s, ExitCode [%d-%d]", stateWord, lo.ExitStatus(), hi.ExitStatus())
			set("SLURM_JOB_EXIT_CODE_MIN", strconv.Itoa(lo.ExitStatus()))
			set("SLURM_JOB_EXIT_CODE_MAX", strconv.Itoa(hi.ExitStatus()))
		case hi.Signaled():
			term = fmt.Sprintf(", Mixed, MaxSignal [%d]", int(hi.Signal()))
			set("SLURM_JOB_TERM_SIGNAL_MAX", strconv.Itoa(int(hi.Signal())))
		default:
			term = ", " + stateWord
			set("SLURM_JOB_EXIT_CODE_MAX", "0")
		}
	} else if complete {
		if ws := syscall.WaitStatus(j.ExitCode); ws.Exited() {
			term = fmt.Sprintf(", %s, ExitCode %d", stateWord, ws.ExitStatus())
			set("SLURM_JOB_EXIT_CODE_MAX", strconv.Itoa(ws.ExitStatus()))
		} else {
			term = ", " + stateWord
			set("SLURM_JOB_EXIT_CODE_MAX", "0")
		}
	}
	name := j.descStr(descName)
	var subject string
	switch {
	case arraySummary:
		// The array's summary, under its own id (the subject has no times in Slurm's either).
		subject = fmt.Sprintf("Slurm Array Summary Job_id=%d_* (%d) Name=%s %s%s", j.ArrayJobID, j.ArrayJobID, name, mailTypeWord(typ), term)
	case j.ArrayJobID != 0:
		subject = fmt.Sprintf("Slurm Array Task Job_id=%d_%d (%d) Name=%s %s%s%s", j.ArrayJobID, j.ArrayTaskID, j.JobID, name, mailTypeWord(typ), times, term)
	default:
		subject = fmt.Sprintf("Slurm Job_id=%d Name=%s %s%s%s", j.JobID, name, mailTypeWord(typ), times, term)
	}
	prog, user := c.config().MailProg, c.mailUser(j)
	c.log.Debug("email msg", "to", user, "subject", subject)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if status, timedOut := c.runOneCtldScript(prog, []string{"-s", subject, user}, env, mailProgTimeout); status != 0 {
			c.log.Error("MailProg returned error", "prog", prog, "status", statusText(status), "timed_out", timedOut)
		}
	}()
}

// mailTimeLimits sends the TIME_LIMIT_50/80/90/100 mails of running job j as it reaches
// that share of its time limit (Slurm's job_time_limit; the last as it times out), once
// each, under the lock.
func (c *Controller) mailTimeLimits(j *jobRecord, now int64) {
	typ := uint16(j.descUint(descMailType))
	if typ&(jobspec.MailTime100|jobspec.MailTime90|jobspec.MailTime80|jobspec.MailTime50) == 0 || c.config().MailProg == "" {
		return
	}
	limit := int64(j.TimeLimit) * 60
	left := limit - j.runSeconds(now)
	for _, t := range []struct {
		bit  uint16
		left int64
	}{{jobspec.MailTime100, 0}, {jobspec.MailTime90, limit / 10}, {jobspec.MailTime80, limit / 5}, {jobspec.MailTime50, limit / 2}} {
		if typ&t.bit != 0 && left <= t.left && !c.mailTimes.mark(j.JobID, t.bit) {
			c.mailJob(j, t.bit)
		}
	}
}

// noVal16 is Slurm's NO_VAL16, an unset 16-bit field.
const noVal16 = 0xfffe
