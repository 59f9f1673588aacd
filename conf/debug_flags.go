package conf

import (
	"fmt"
	"strings"
)

// debugFlagNames are Slurm 22.05's DebugFlags in the order debug_flags2str prints them; a
// flag's bit is its index here (Orbit's own numbering: the bits never leave the controller).
var debugFlagNames = []string{
	"Accrue", "JobAccountGather", "Agent", "Backfill", "BackfillMap", "BurstBuffer", "Cgroup",
	"CpuFrequency", "CPU_Bind", "Data", "DB_Archive", "DB_Assoc", "DB_TRES", "DB_Event", "DB_Job",
	"DB_QOS", "DB_Query", "DB_Reservation", "DB_Resource", "DB_Step", "DB_Usage", "DB_WCKey",
	"Dependency", "Elasticsearch", "Energy", "ExtSensors", "Federation", "FrontEnd", "Gang",
	"Gres", "Hetjob", "Interconnect", "JobContainer", "NodeFeatures", "License", "MPI",
	"Network", "NetworkRaw", "NO_CONF_HASH", "Power", "Priority", "Profile", "Protocol",
	"Reservation", "Route", "Script", "SelectType", "Steps", "Switch", "TimeCray", "TraceJobs",
	"Triggers", "WorkQueue",
}

// debugFlagAliases are the other names debug_str2flags takes.
var debugFlagAliases = map[string]string{
	"jag": "JobAccountGather", "net": "Network", "netraw": "NetworkRaw", "trigger": "Triggers",
	"powersave": "Power", "workq": "WorkQueue",
}

// ErrDebugFlagTaskRemoved is what ParseDebugFlags says of "Task": Slurm logs it and goes on.
const ErrDebugFlagTaskRemoved = "DebugFlag Task has been removed, please use CPU_Bind"

// ParseDebugFlags reads a comma-separated DebugFlags list as Slurm's debug_str2flags does:
// names without regard to case, and the first unknown name is an error naming it. "Task"
// sets nothing; it is reported in notes.
func ParseDebugFlags(s string) (flags uint64, notes []string, err error) {
	for _, tok := range strings.Split(s, ",") {
		if tok == "" {
			continue // strtok skips empty tokens
		}
		name := tok
		if a, ok := debugFlagAliases[strings.ToLower(tok)]; ok {
			name = a
		}
		if strings.EqualFold(name, "Task") {
			notes = append(notes, ErrDebugFlagTaskRemoved)
			continue
		}
		bit := -1
		for i, n := range debugFlagNames {
			if strings.EqualFold(n, name) {
				bit = i
				break
			}
		}
		if bit < 0 {
			return 0, notes, fmt.Errorf("Invalid DebugFlag: %s", tok)
		}
		flags |= 1 << bit
	}
	return flags, notes, nil
}

// DebugFlagsString is flags as Slurm's debug_flags2str writes them, "" for none.
func DebugFlagsString(flags uint64) string {
	var names []string
	for i, n := range debugFlagNames {
		if flags&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}
