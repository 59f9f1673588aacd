package ctld

// ResvProlog and ResvEpilog (Slurm's _run_script in reservation.c): slurmctld runs the
// ResvProlog program when a reservation's window starts and the ResvEpilog program when it
// ends, each once a window, with the reservation's name as its only argument, an empty
// environment and a process group of its own, bounded by PrologEpilogTimeout; what either
// returns changes nothing. A recurring reservation runs them for every window. The record
// keeps which ran (changed through the apply path before they are started), so a restarted
// controller runs neither twice.

// resvScript is one run: which program (its slurm.conf key) for which reservation.
type resvScript struct {
	key, resv string
}

// runResvScripts starts each script in the background.
func (c *Controller) runResvScripts(scripts []resvScript) {
	for _, s := range scripts {
		path, _ := c.config().Get(s.key)
		if path == "" {
			continue
		}
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			status, timedOut := c.runOneCtldScript(path, []string{s.resv}, nil, c.scriptTimeout())
			if status != 0 || timedOut {
				c.log.Error(s.key+" failed", "reservation", s.resv, "path", path, "status", statusText(status), "timed_out", timedOut)
				return
			}
			c.log.Info(s.key+" ran", "reservation", s.resv)
		}()
	}
}
