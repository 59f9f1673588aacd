// Package getopt owns glibc getopt_long's command-line semantics, shared by every Orbit
// command that must parse argv exactly as its Slurm counterpart does: the option table
// (long name, short letter, argument kind), the three orderings (permute, stop at the first
// non-option as with a leading '+', operands in order as with a leading '-'), "--",
// clustered short options, attached-only optional arguments, unambiguous long prefixes with
// exact-match precedence, and glibc's error texts, byte for byte, with argv[0] as given.
//
// It imports nothing from Orbit: the commands' own tables and actions stay with them.
package getopt
