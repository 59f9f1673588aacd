// Package memsize owns Slurm's memory sizes as users type and read them: --mem,
// --mem-per-cpu, --mem-per-gpu, RealMemory=, DefMemPerCPU= and the like parsed as Slurm's
// str_to_mbytes does (a count with an optional K/M/G/T suffix, megabytes by default), and
// printed as scontrol prints MinMemoryNode= (convert_num_unit, exact mode) or as
// mbytes_to_str prints them.
//
// It imports only the standard library; it must not import conf/, internal/ or any daemon or
// command code.
package memsize
