package ctld

import "github.com/orbit-hpc/orbit/compat/licenses"

// inUse is what jobs holding nodes hold besides the nodes, that a pending job may have to wait
// for: their array's task count (ArrayTaskThrottle), and licenses.
type inUse struct {
	tasks    map[uint32]uint32 // tasks holding nodes per array, for the %N throttle
	licenses map[string]uint32 // licenses held, by name
	totals   []licenses.License
}

// inUse counts what the jobs holding nodes hold now, in one pass over the jobs. Called with
// c.mu held.
func (c *Controller) inUse() *inUse {
	u := &inUse{tasks: map[uint32]uint32{}, licenses: map[string]uint32{}, totals: c.licenseTotals()}
	for _, j := range c.t.liveJobs() {
		if j.ArrayJobID != 0 && j.holdsNodes() {
			u.tasks[j.ArrayJobID]++
		}
		if len(u.totals) > 0 && j.holdsLicenses() {
			u.addLicenses(j)
		}
	}
	return u
}

// add counts job j, just started by a plan, in u.
func (u *inUse) add(j *jobRecord) {
	if j.ArrayJobID != 0 {
		u.tasks[j.ArrayJobID]++
	}
	u.addLicenses(j)
}
