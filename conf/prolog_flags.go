package conf

import "strings"

// checkPrologFlags refuses a PrologFlags value as Slurm 22.05's configuration reader does:
// its words are Alloc, Contain, DeferBatch, NoHold, Serial and X11 (Contain implies Alloc,
// X11 both); NoHold cannot go with Contain, nor X11 with proctrack/linuxproc.
func (l *loader) checkPrologFlags(v, proctrack string) {
	contain, noHold, x11 := false, false, false
	for _, w := range strings.Split(v, ",") {
		switch strings.ToLower(w) {
		case "":
		case "alloc", "deferbatch", "serial":
		case "contain":
			contain = true
		case "nohold":
			noHold = true
		case "x11":
			contain, x11 = true, true
		default:
			l.errorf("PrologFlags", "Invalid PrologFlag: %s", w)
			l.errorf("PrologFlags", "PrologFlags invalid: %s", v).Fatal = true
			return
		}
	}
	switch {
	case noHold && contain:
		l.errorf("PrologFlags", "PrologFlags invalid combination: NoHold cannot be combined with Contain and/or X11").Fatal = true
	case x11 && proctrack == "proctrack/linuxproc":
		l.errorf("PrologFlags", "Invalid combination: PrologFlags=X11 cannot be combined with proctrack/linuxproc").Fatal = true
	}
}
