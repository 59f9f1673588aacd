// Package hostlist owns Slurm's hostlist expressions: expanding `tux[0-5,12]` into host names
// and compressing host names back into ranged form exactly as Slurm 22.05 does (its
// src/common/hostlist.c), for `scontrol show hostnames|hostlist|hostlistsorted`, node lists in
// command output and SLURM_*_NODELIST.
//
// The reference decides, quirks included, and testsuite/hostlist checks it case by case:
//   - items are split at ',', ' ' and '\t' (not '\n'), except inside brackets;
//   - leading zeros of a range's low end fix the width (`n[01-10]`, but `n[1-010]` is n1…n10);
//   - several bracket groups expand leftmost-slowest (`rack[0-1]_blade[2,3]`), but no text may
//     follow the last ']' (`gpu[1-2]-ib` is an invalid hostlist in 22.05);
//   - a '[' with no ']' keeps its prefix and gains a ']' (`a[1-3` is the host "a]");
//   - a range holds at most 64Ki hosts, a leading group at most 64Ki prefixes, a bracket at
//     most 256Ki ranges (past that Slurm stops with a fatal error);
//   - numbers are C unsigned longs: a 23-digit suffix saturates, counts and comparisons wrap,
//     and a few such lists print oddly or lose hosts when sorted, as they do in Slurm.
//
// It imports only the standard library; it must not import conf/, internal/ or daemon code.
package hostlist
