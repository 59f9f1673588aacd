// Package hostlist owns Slurm's hostlist expressions: expanding `tux[0-5,12]` into host names
// and compressing host names back into ranged form, exactly as Slurm 22.05 does for
// `scontrol show hostnames|hostlist|hostlistsorted`, node lists in output and SLURM_*_NODELIST.
//
// It imports only the standard library; it must not import conf/, internal/ or any daemon code.
package hostlist
