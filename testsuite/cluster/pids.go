package cluster

// ControllerPID is the slurmctld process's pid, or 0 when the controller runs in the test
// process (Options.InProcess), for benchmarks that read its memory from /proc.
func (c *Cluster) ControllerPID() int {
	if c.ctld == nil || c.ctld.Process == nil {
		return 0
	}
	return c.ctld.Process.Pid
}
