package conf

import "strings"

// Slurm's PreemptMode bits (slurm.h): one mode, optionally with GANG or WITHIN.
const (
	preemptOff     uint16 = 0x0000
	preemptSuspend uint16 = 0x0001
	preemptRequeue uint16 = 0x0002
	preemptCancel  uint16 = 0x0008
	preemptWithin  uint16 = 0x4000
	preemptGang    uint16 = 0x8000
)

// preemptModeNum is Slurm's preempt_mode_num: the bits of a PreemptMode value, false when
// a word is unknown, more than one mode is named, or GANG comes with WITHIN.
func preemptModeNum(v string) (uint16, bool) {
	var mode uint16
	modes := 0
	// Read word by word without allocating: job info asks for a job's mode per job.
	for rest := v; rest != ""; {
		var w string
		w, rest, _ = strings.Cut(rest, ",")
		switch {
		case w == "":
			continue // strtok skips empty words
		case strings.EqualFold(w, "gang"):
			mode |= preemptGang
		case strings.EqualFold(w, "within"):
			mode |= preemptWithin
		case strings.EqualFold(w, "off"), strings.EqualFold(w, "cluster"):
			modes++
		case strings.EqualFold(w, "cancel"):
			mode += preemptCancel
			modes++
		case strings.EqualFold(w, "requeue"):
			mode += preemptRequeue
			modes++
		case strings.EqualFold(w, "on"), strings.EqualFold(w, "suspend"):
			mode += preemptSuspend
			modes++
		default:
			return 0, false
		}
	}
	if modes > 1 || mode&preemptGang != 0 && mode&preemptWithin != 0 {
		return 0, false
	}
	return mode, true
}

// checkPreempt refuses PreemptMode and PreemptType as Slurm's configuration reader does: an
// invalid mode, SUSPEND without GANG, and a type that cannot go with the mode (preempt/qos
// and preempt/partition_prio need a mode other than OFF, preempt/none needs OFF).
func (l *loader) checkPreempt(c *Config) {
	mode := preemptOff
	if raw, ok := c.Raw["PreemptMode"]; ok {
		v := raw.Value
		m, valid := preemptModeNum(v)
		switch {
		case !valid:
			l.errorf("PreemptMode", "PreemptMode=%s invalid", v)
			return
		case m == preemptSuspend:
			l.errorf("PreemptMode", "PreemptMode=SUSPEND requires GANG too")
			return
		}
		mode = m
	}
	base := mode &^ preemptGang
	incompatible := false
	switch c.PreemptType {
	case "preempt/qos", "preempt/partition_prio":
		incompatible = base&^preemptWithin == preemptOff
	case "preempt/none":
		incompatible = base != preemptOff
	}
	if incompatible {
		l.errorf("PreemptType", "PreemptType and PreemptMode values incompatible")
	}
}
