package conf

import "strings"

// checkTaskPluginParam refuses a TaskPluginParam value as Slurm's configuration reader
// does: one binding unit at most (none, sockets, cores, threads), verbose, one
// autobind=none|threads|cores|sockets, SlurmdOffSpec; any other word fails the file.
func (l *loader) checkTaskPluginParam(v string) {
	unit, auto := false, false
	for _, w := range strings.Split(v, ",") {
		if w == "" {
			continue
		}
		lw := strings.ToLower(w)
		switch {
		case lw == "none" || lw == "sockets" || lw == "cores" || lw == "threads":
			if unit {
				l.errorf("TaskPluginParam", "Bad TaskPluginParam: %s", w)
				return
			}
			unit = true
		case lw == "verbose", lw == "slurmdoffspec":
		case strings.HasPrefix(lw, "autobind="):
			if auto {
				l.errorf("TaskPluginParam", "Bad TaskPluginParam: autobind already set")
				return
			}
			switch val := w[len("autobind="):]; strings.ToLower(val) {
			case "none", "threads", "cores", "sockets":
				auto = true
			default:
				l.errorf("TaskPluginParam", "Bad TaskPluginParam autobind value: %s", val)
				return
			}
		default:
			l.errorf("TaskPluginParam", "Bad TaskPluginParam: %s", w)
			return
		}
	}
}
