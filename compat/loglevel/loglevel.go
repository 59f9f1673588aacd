// Package loglevel holds Slurm 22.05's log levels: their numbers and names (log_num2string,
// log_string2num), as slurm.conf's *Debug keys and srun --slurmd-debug give them. It imports
// nothing but the standard library, so every command and daemon may link it.
package loglevel

import (
	"strconv"
	"strings"
)

// Slurm's log levels (log.h), in order.
const (
	Quiet uint16 = iota
	Fatal
	Error
	Info
	Verbose
	Debug
	Debug2
	Debug3
	Debug4
	Debug5
	End // a channel that is off; named "(null)"
)

// NoVal16 is what Parse gives a name it does not know (Slurm's NO_VAL16).
const NoVal16 uint16 = 0xfffe

var names = []string{"quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5"}

// Parse is log_string2num: a number (the digits atoi reads) or a level's name in any case;
// NoVal16 for anything else.
func Parse(s string) uint16 {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		end := 0
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
		n, _ := strconv.ParseUint(s[:end], 10, 64)
		return uint16(n) // atoi's int, cast as Slurm casts it
	}
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return uint16(i)
		}
	}
	return NoVal16
}

// Name is log_num2string: the level's name, "(null)" for End, else "unknown".
func Name(n uint16) string {
	switch {
	case int(n) < len(names):
		return names[n]
	case n == End:
		return "(null)"
	}
	return "unknown"
}
