// Package slurmtime owns Slurm's durations and points in time as users type and read them:
// time limits (--time, --time-min, MaxTime=, DefaultTime=, TimeLimit=) as time_str2mins and
// time_str2secs parse them, their printed forms (scontrol's [D-]HH:MM:SS, squeue's
// [D-][H:]M:SS, UNLIMITED), dates accepted by --begin, --deadline and StartTime= (Slurm's
// parse_time), and timestamps as scontrol and squeue print them, SLURM_TIME_FORMAT included.
//
// Every function takes "now" as an argument where Slurm reads the clock, so results are
// deterministic. It imports only the standard library; it must not import conf/, internal/
// or any daemon or command code.
package slurmtime
