package main

import "github.com/orbit-hpc/orbit/compat/format"

// matchFlags says which attributes the chosen format shows (Slurm's sinfo_match_flags):
// nodes and partitions are grouped into one line only when the shown attributes agree.
type matchFlags struct {
	allocMem, avail, comment, cpus, cpuLoad, freeMem, cores, defaultTime, disk, extra bool
	features, featuresAct, groups, gres, gresUsed, maxCPUsPerNode, memory, nodeAddr   bool
	hostnames, partition, port, preemptMode, prioJobFactor, prioTier, reason, root    bool
	oversubscribe, jobSize, state, stateComplete, sockets, sct, maxTime, reasonTime   bool
	threads, reasonUser, version, weight                                              bool
}

// flagsOf derives the match flags from the fields of a parsed format, keyed by each field's
// first -O name (the -o letters select the same fields).
func flagsOf(f *format.SinfoFormat) matchFlags {
	var m matchFlags
	set := map[string]*bool{
		"allocmem": &m.allocMem, "available": &m.avail, "comment": &m.comment,
		"cpus": &m.cpus, "cpusstate": &m.cpus, "cpusload": &m.cpuLoad, "freemem": &m.freeMem,
		"cores": &m.cores, "defaulttime": &m.defaultTime, "disk": &m.disk, "extra": &m.extra,
		"features": &m.features, "features_act": &m.featuresAct, "groups": &m.groups,
		"gres": &m.gres, "gresused": &m.gresUsed, "maxcpuspernode": &m.maxCPUsPerNode,
		"memory": &m.memory, "nodeaddr": &m.nodeAddr, "nodehost": &m.hostnames,
		"partition": &m.partition, "partitionname": &m.partition, "port": &m.port,
		"preemptmode": &m.preemptMode, "priorityjobfactor": &m.prioJobFactor,
		"prioritytier": &m.prioTier, "reason": &m.reason, "root": &m.root,
		"oversubscribe": &m.oversubscribe, "size": &m.jobSize, "statecompact": &m.state,
		"statelong": &m.state, "statecomplete": &m.stateComplete, "sockets": &m.sockets,
		"socketcorethread": &m.sct, "time": &m.maxTime, "timestamp": &m.reasonTime,
		"threads": &m.threads, "user": &m.reasonUser, "userlong": &m.reasonUser,
		"version": &m.version, "weight": &m.weight,
	}
	for _, it := range f.Items {
		if it.Kind != format.ItemField {
			continue
		}
		fd := &f.Table.Fields[it.Field]
		if len(fd.Names) == 0 {
			continue
		}
		if b := set[fd.Names[0]]; b != nil {
			*b = true
		}
	}
	return m
}
