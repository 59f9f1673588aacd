package node

import "github.com/orbit-hpc/orbit/compat/loglevel"

// logLevels are the levels srun --slurmd-debug reports besides its own: Options.LogLevels,
// else SlurmdDebug's and "quiet" (a slurmd in the foreground logs nothing to syslog).
func (d *Daemon) logLevels() [2]string {
	if d.opts.LogLevels != [2]string{} {
		return d.opts.LogLevels
	}
	return [2]string{loglevel.Name(loglevel.Parse(d.cfg.SlurmdDebug)), loglevel.Name(loglevel.Quiet)}
}
