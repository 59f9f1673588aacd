package ctld

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/licenses"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Licenses are slurm.conf's cluster-wide counted resources (Licenses=matlab:2,stata), as
// Slurm 22.05's local licenses: a job asks for some with --licenses, which is refused at
// submit when it names one not configured or more than its total ("Invalid license
// specification"); a pending job waits with reason Licenses while running jobs hold too many
// for it, and holds its licenses from its start until it ends (a suspended job keeps them).
// Nothing about licenses is stored: what is in use is counted from the running jobs. The
// scheduler plugin does not see licenses; the controller's eligibility (and verifyStart,
// for the jobs one plan starts) keeps it from starting a job without its licenses.

// holdsLicenses says whether j holds its licenses: from its start until it ends (Slurm
// returns them when the job completes, before its epilogs).
func (j *jobRecord) holdsLicenses() bool {
	s := j.state()
	return (s.IsRunning() || s.IsSuspended()) && !s.IsCompleting()
}

// addLicenses counts the licenses j holds in u (sched_in_use.go).
func (u *inUse) addLicenses(j *jobRecord) {
	if len(u.totals) == 0 {
		return
	}
	for _, l := range j.licenses() {
		u.licenses[l.Name] += l.Count
	}
}

// licenseReason is WaitLicenses when the licenses pending job j asks for are not all free,
// else WaitNoReason.
func (u *inUse) licenseReason(j *jobRecord) states.Reason {
	for _, l := range j.licenses() {
		t := licenses.Find(u.totals, l.Name)
		if t == nil || u.licenses[l.Name]+l.Count > t.Count {
			return states.WaitLicenses
		}
	}
	return states.WaitNoReason
}

// licenses is j's --licenses, parsed (it was checked at submit).
func (j *jobRecord) licenses() []licenses.License {
	s := j.descStr(descLicenses)
	if s == "" {
		return nil
	}
	l, _ := licenses.Parse(s)
	return l
}

// licenseTotals is slurm.conf's Licenses (checked when the configuration was taken:
// checkLicenseConfig).
func (c *Controller) licenseTotals() []licenses.License {
	l, _ := licenses.Parse(c.config().Licenses)
	return l
}

// checkLicenseConfig refuses a Licenses= Slurm's controller would not start with.
func checkLicenseConfig(spec string) error {
	if _, err := licenses.Parse(spec); err != nil {
		return fmt.Errorf("Invalid configured licenses: %s", spec)
	}
	return nil
}

// checkJobLicenses refuses a --licenses Slurm refuses at submit: not a valid list, a name
// slurm.conf does not configure, or more than its total.
func (c *Controller) checkJobLicenses(spec string) error {
	if spec == "" {
		return nil
	}
	req, err := licenses.Parse(spec)
	if err != nil {
		return slurmErr(errnoInvalidLicenses)
	}
	totals := c.licenseTotals()
	for _, l := range req {
		t := licenses.Find(totals, l.Name)
		if t == nil || l.Count > t.Count {
			return slurmErr(errnoInvalidLicenses)
		}
	}
	return nil
}

// handleLicenseInfo serves MsgLicenseInfo (scontrol show licenses): every configured license
// with its total and how many running jobs hold, by name.
func (c *Controller) handleLicenseInfo(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	c.mu.RLock()
	u := c.inUse()
	c.mu.RUnlock()
	rep := &wire.LicenseInfoReply{}
	for _, t := range u.totals {
		rep.Licenses = append(rep.Licenses, wire.LicenseInfo{Name: t.Name, Total: t.Count, Used: u.licenses[t.Name]})
	}
	slices.SortFunc(rep.Licenses, func(a, b wire.LicenseInfo) int { return strings.Compare(a.Name, b.Name) })
	return rep, nil
}

// errnoNotPendingNorRunning refuses a license change of a job neither pending nor running.
const errnoNotPendingNorRunning = 2086 // ESLURM_JOB_NOT_PENDING_NOR_RUNNING

func init() { errnoTexts[errnoNotPendingNorRunning] = "Job is not pending nor running" }

// updateLicenses is scontrol update JobId= Licenses= on n, as Slurm's update_job: the list
// must be valid for this cluster; a pending job's changes freely, a running job's only by an
// operator, or to none by anyone (which may hand out more licenses than there are, as in
// Slurm).
func (c *Controller) updateLicenses(n *jobRecord, spec string, priv bool) int32 {
	if err := c.checkJobLicenses(spec); err != nil {
		return errnoInvalidLicenses
	}
	s := n.state()
	switch {
	case s.IsPending():
	case s.IsRunning() && !s.IsCompleting():
		if !priv && spec != "" {
			return errnoAccessDenied
		}
	default:
		return errnoNotPendingNorRunning
	}
	n.editDesc(func(d *wire.JobDesc) { d.Licenses, d.LicensesEmpty = spec, spec == "" })
	return 0
}
