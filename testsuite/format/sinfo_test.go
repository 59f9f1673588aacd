package format_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
)

func limit(t *testing.T, v string) uint32 {
	switch v {
	case "UNLIMITED", "INFINITE":
		return format.Infinite
	case "NONE":
		return format.NoVal
	}
	return minutes(t, v)
}

func num(v string) uint32 {
	if v == "UNLIMITED" {
		return format.Infinite
	}
	n, _ := strconv.ParseUint(v, 10, 32)
	return uint32(n)
}

// sinfoRows rebuilds sinfo's lines from the recorded node and partition data: one line per
// (partition, node). Grouping nodes into lines is sinfo's business, not the engine's, and
// the reference cluster has one node in one partition.
func sinfoRows(t *testing.T) []*format.SinfoRow {
	nodes := readRecords(t, "testdata/sinfo/nodes.txt")
	parts := readRecords(t, "testdata/sinfo/partitions.txt")
	// Nodes without their own Port= listen on SlurmdPort.
	port := uint16(num(readConfig(t)["SlurmdPort"]))
	var rows []*format.SinfoRow
	for _, p := range parts {
		for _, n := range nodes {
			if !strings.Contains(","+n["Partitions"]+",", ","+p["PartitionName"]+",") {
				continue
			}
			r := sinfoRow(t, p, n)
			if r.Port == 0 {
				r.Port = port
			}
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no sinfo rows in the recorded data")
	}
	return rows
}

func sinfoRow(t *testing.T, p, n record) *format.SinfoRow {
	r := &format.SinfoRow{
		HasPartition:      true,
		Partition:         p["PartitionName"],
		PartitionDefault:  p["Default"] == "YES",
		PartitionState:    strings.ToLower(p["State"]),
		MaxTime:           limit(t, p["MaxTime"]),
		DefaultTime:       limit(t, p["DefaultTime"]),
		MinNodes:          num(p["MinNodes"]),
		MaxNodes:          num(p["MaxNodes"]),
		RootOnly:          p["RootOnly"] == "YES",
		PreemptMode:       p["PreemptMode"],
		MaxCPUsPerNode:    num(p["MaxCPUsPerNode"]),
		PriorityTier:      uint16(num(p["PriorityTier"])),
		PriorityJobFactor: uint16(num(p["PriorityJobFactor"])),
		NodesTotal:        1,
		Features:          n.str("AvailableFeatures"),
		FeaturesAct:       n.str("ActiveFeatures"),
		Gres:              n.str("Gres"),
		Version:           n.str("Version"),
		NodeList:          n["NodeName"],
		Hostnames:         n["NodeHostName"],
		NodeAddrs:         n["NodeAddr"],
		ReasonUID:         format.NoVal,
	}
	if g := p["AllowGroups"]; g != "ALL" {
		r.AllowGroups = g
	}
	if a := p["AllocNodes"]; a != "ALL" {
		r.AllowAllocNodes = a
	}
	switch os := p["OverSubscribe"]; {
	case os == "EXCLUSIVE":
		r.MaxShare = 0
	case os == "NO":
		r.MaxShare = 1
	case strings.HasPrefix(os, "FORCE:"):
		r.MaxShare = format.ShareForce | uint16(num(strings.TrimPrefix(os, "FORCE:")))
	case strings.HasPrefix(os, "YES:"):
		r.MaxShare = uint16(num(strings.TrimPrefix(os, "YES:")))
	}
	st, ok := states.ParseNodeStateComplete(n["State"])
	if !ok {
		t.Fatalf("node state %q", n["State"])
	}
	r.NodeState = st
	busy := st.Base() == states.NodeAllocated || st.Base() == states.NodeMixed
	unusable := st.Base() == states.NodeDown || st&(states.NodeDrain|states.NodeFail) != 0
	switch {
	case busy:
		r.NodesAlloc = 1
	case unusable:
		r.NodesOther = 1
	default:
		r.NodesIdle = 1
	}
	cpus, alloc := num(n["CPUTot"]), num(n["CPUAlloc"])
	r.CPUsTotal, r.CPUsAlloc = cpus, alloc
	if unusable {
		r.CPUsOther = cpus - alloc
	} else {
		r.CPUsIdle = cpus - alloc
	}
	r.MinCPUs, r.MaxCPUs = cpus, cpus
	s, c, th := uint16(num(n["Sockets"])), uint16(num(n["CoresPerSocket"])), uint16(num(n["ThreadsPerCore"]))
	r.MinSockets, r.MaxSockets, r.MinCores, r.MaxCores, r.MinThreads, r.MaxThreads = s, s, c, c, th, th
	mem := uint64(num(n["RealMemory"]))
	r.MinMemMB, r.MaxMemMB = mem, mem
	r.MinDiskMB, r.MaxDiskMB = num(n["TmpDisk"]), num(n["TmpDisk"])
	r.MinWeight, r.MaxWeight = num(n["Weight"]), num(n["Weight"])
	r.AllocMemMB = uint64(num(n["AllocMem"]))
	if v := n["Reason"]; v != "" {
		// Reason=text [user@2026-01-01T00:00:00]
		r.Reason = v
		if i := strings.LastIndex(v, " ["); i >= 0 {
			r.Reason = v[:i]
		}
	}
	return r
}

func sinfoFormat(t *testing.T, mode, spec string, rows []*format.SinfoRow) (*format.SinfoFormat, []string, bool) {
	noHeader := strings.HasSuffix(mode, "h")
	var f *format.SinfoFormat
	var msgs []string
	switch strings.TrimSuffix(mode, "h") {
	case "default":
		f, msgs = format.Sinfo.ParseLong(format.SinfoDefault)
		format.SetSinfoFieldWidths(f, rows, true, false)
	case "long":
		f, msgs = format.Sinfo.ParseLong(format.SinfoLong)
		format.SetSinfoFieldWidths(f, rows, true, false)
	case "node":
		f, msgs = format.Sinfo.ParseLong(format.SinfoNode)
		format.SetSinfoFieldWidths(f, rows, true, true)
	case "o":
		f, msgs = format.Sinfo.Parse(spec)
	case "O":
		f, msgs = format.Sinfo.ParseLong(spec)
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	return f, msgs, noHeader
}

func TestSinfoGolden(t *testing.T) {
	rows := sinfoRows(t)
	for _, c := range readCases(t, "sinfo") {
		t.Run(c.name, func(t *testing.T) {
			f, msgs, noHeader := sinfoFormat(t, c.mode, c.spec, rows)
			if got := f.Render(rows, noHeader); got != c.out {
				t.Errorf("sinfo %s %q:\n got:\n%s\nwant:\n%s", c.mode, c.spec, got, c.out)
			}
			if got := stderrOf(msgs); got != c.err {
				t.Errorf("sinfo %s %q stderr:\n got: %q\nwant: %q", c.mode, c.spec, got, c.err)
			}
			if c.rc != 0 {
				t.Errorf("reference exited %d; format errors never change sinfo's exit code", c.rc)
			}
		})
	}
}
