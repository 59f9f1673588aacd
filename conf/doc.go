// Package conf reads slurm.conf and its companions (gres.conf, topology.conf, cgroup.conf)
// exactly as Slurm 22.05 reads them: syntax, Include, DEFAULT lines, hostlist expressions,
// every key Slurm knows plus the keys Orbit adds, Slurm's defaults, validation that names
// file, line and key, and the `scontrol show config` rendering.
//
// Files by role: syntax.go (logical lines, Key=Value pairs), load.go (Load, Locate, Include),
// keys.go (the registry of Slurm's top-level keys), orbit_keys.go (Orbit's keys, documented in
// ORBIT_KEYS.md), lines.go (sub-keys of NodeName/PartitionName/NodeSet/DownNodes/FrontendName),
// values.go (Slurm's number and boolean rules and error texts), build.go, nodes.go,
// partitions.go, priority.go and orbit.go (typed Config, defaults, derivations, cross-checks), subst.go
// (%n/%h), expand_range.go (the allocation-light path for prefix[ranges] node lists, which
// every command's slurm.conf load pays on a large cluster), show_config.go, gres.go,
// topology.go, cgroup.go, errors.go.
//
// It may import compat/ and the standard library; it must not import internal/ or any daemon
// or command package.
package conf
