// Package conf reads slurm.conf and its companions (gres.conf, topology.conf, cgroup.conf)
// exactly as Slurm 22.05 reads them: syntax, Include, DEFAULT lines, hostlist expressions,
// every key Slurm knows plus the keys Orbit adds, Slurm's defaults, validation that names
// file, line and key, and the `scontrol show config` rendering.
//
// It may import compat/ and the standard library; it must not import internal/ or any daemon
// or command package.
package conf
