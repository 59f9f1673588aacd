package format_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
)

// record is one `scontrol show ... -o` line as Key=Value pairs.
type record map[string]string

// parseShowLine splits a one-line scontrol record. Values may contain spaces (OS=Linux 6.1
// #1 SMP ...): a word without "=" continues the previous value.
func parseShowLine(line string) record {
	r := record{}
	last := ""
	for _, w := range strings.Split(strings.TrimRight(line, " "), " ") {
		if w == "" {
			continue // scontrol ends some values with an extra space
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			if last != "" {
				r[last] += " " + w
			}
			continue
		}
		r[k] = v
		last = k
	}
	return r
}

func readRecords(t *testing.T, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, parseShowLine(sc.Text()))
		}
	}
	return out
}

// str maps scontrol's "(null)" (a NULL string) to the row's empty string.
func (r record) str(k string) string {
	v := r[k]
	if v == "(null)" {
		return ""
	}
	return v
}

func (r record) u32(t *testing.T, k string) uint32 {
	v := r[k]
	if i := strings.IndexAny(v, "-:"); i > 0 {
		v = v[:i] // NumNodes=1-2: the minimum
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		t.Fatalf("%s=%q: %v", k, r[k], err)
	}
	return uint32(n)
}

// u16 reads a count scontrol prints as "*" when unset.
func u16(v string) uint16 {
	if v == "*" || v == "" {
		return format.NoVal16
	}
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil {
		return format.NoVal16
	}
	return uint16(n)
}

func (r record) time(t *testing.T, k string) time.Time {
	switch v := r[k]; v {
	case "", "Unknown", "None", "N/A":
		return time.Time{}
	default:
		tm, err := time.ParseInLocation(format.TimeLayout, v, time.Local)
		if err != nil {
			t.Fatalf("%s=%q: %v", k, v, err)
		}
		return tm
	}
}

// minutes parses a time limit as scontrol prints it: UNLIMITED, [D-]HH:MM:SS.
func minutes(t *testing.T, v string) uint32 {
	switch v {
	case "UNLIMITED":
		return format.Infinite
	case "Partition_Limit", "N/A", "":
		return format.NoVal
	}
	days := 0
	if d, rest, ok := strings.Cut(v, "-"); ok {
		days, _ = strconv.Atoi(d)
		v = rest
	}
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		t.Fatalf("bad time %q", v)
	}
	h, _ := strconv.Atoi(parts[0])
	m, _ := strconv.Atoi(parts[1])
	return uint32(days*24*60 + h*60 + m)
}

func secs(t *testing.T, v string) uint32 { return minutes(t, v) * 60 }

// megabytes parses scontrol's memory sizes (0, 1536M, 4G).
func megabytes(t *testing.T, v string) uint64 {
	mult := 1.0
	switch {
	case strings.HasSuffix(v, "M"):
		v = strings.TrimSuffix(v, "M")
	case strings.HasSuffix(v, "G"):
		mult, v = 1024, strings.TrimSuffix(v, "G")
	case strings.HasSuffix(v, "T"):
		mult, v = 1024*1024, strings.TrimSuffix(v, "T")
	}
	n, err := strconv.ParseFloat(v, 64) // scontrol prints 1536M as 1.50G
	if err != nil {
		t.Fatalf("memory %q: %v", v, err)
	}
	return uint64(n*mult + 0.5)
}

// nameID splits "root(0)".
func nameID(v string) (string, uint32) {
	name, id, _ := strings.Cut(v, "(")
	n, _ := strconv.ParseUint(strings.TrimSuffix(id, ")"), 10, 32)
	return name, uint32(n)
}

// jobRow rebuilds what squeue knows about a job from its scontrol record.
func jobRow(t *testing.T, r record) *format.JobRow {
	j := &format.JobRow{
		JobID:         r.u32(t, "JobId"),
		ArrayTaskID:   format.NoVal,
		Name:          r.str("JobName"),
		Account:       r.str("Account"),
		QOS:           r.str("QOS"),
		Partition:     r.str("Partition"),
		Dependency:    r.str("Dependency"),
		Comment:       r.str("Comment"),
		Features:      r.str("Features"),
		Licenses:      r.str("Licenses"),
		Network:       r.str("Network"),
		Command:       r.str("Command"),
		WorkDir:       r.str("WorkDir"),
		StdIn:         r.str("StdIn"),
		StdOut:        r.str("StdOut"),
		StdErr:        r.str("StdErr"),
		Reservation:   r.str("Reservation"),
		WCKey:         r.str("WCKey"),
		NodeList:      r.str("NodeList"),
		ReqNodes:      r.str("ReqNodeList"),
		ExcNodes:      r.str("ExcNodeList"),
		BatchHost:     r.str("BatchHost"),
		TRESAlloc:     r.str("TRES"),
		OverSubscribe: r.str("OverSubscribe"),
		NumNodes:      r.u32(t, "NumNodes"),
		NumCPUs:       r.u32(t, "NumCPUs"),
		NumTasks:      r.u32(t, "NumTasks"),
		MinCPUs:       r.u32(t, "MinCPUsNode"),
		MinTmpDiskMB:  uint32(megabytes(t, r["MinTmpDiskNode"])),
		Priority:      r.u32(t, "Priority"),
		RestartCnt:    r.u32(t, "Restarts"),
		TimeLimit:     minutes(t, r["TimeLimit"]),
		Submit:        r.time(t, "SubmitTime"),
		Start:         r.time(t, "StartTime"),
		End:           r.time(t, "EndTime"),
		Eligible:      r.time(t, "EligibleTime"),
		Accrue:        r.time(t, "AccrueTime"),
		Deadline:      r.time(t, "Deadline"),
		LastSchedEval: r.time(t, "LastSchedEval"),
		DelayBoot:     secs(t, r["DelayBoot"]),
		CPUsPerTask:   u16(r["CPUs/Task"]),
		Sockets:       u16(r["Socks/Node"]),
		CoreSpec:      u16(r["CoreSpec"]),
		BatchFlag:     r["BatchFlag"] == "1",
		Cluster:       r.str("ClusterName"),
	}
	if v := r["MCS_label"]; v != "N/A" {
		j.MCSLabel = v
	}
	if v := r["TimeMin"]; v != "N/A" {
		j.TimeMin = minutes(t, v)
	}
	if v, ok := r["ArrayJobId"]; ok {
		j.ArrayJobID = r.u32(t, "ArrayJobId")
		task := r["ArrayTaskId"]
		if n, err := strconv.ParseUint(task, 10, 32); err == nil {
			j.ArrayTaskID = uint32(n)
		} else {
			j.ArrayTaskStr = task
		}
		_ = v
	}
	j.UserName, j.UserID = nameID(r["UserId"])
	j.GroupName, j.GroupID = nameID(r["GroupId"])
	nice, _ := strconv.Atoi(r["Nice"])
	j.Nice = int32(nice)
	for _, k := range []string{"Requeue", "Reboot", "Contiguous"} {
		n, _ := strconv.Atoi(r[k])
		switch k {
		case "Requeue":
			j.Requeue = uint16(n)
		case "Reboot":
			j.Reboot = uint16(n)
		case "Contiguous":
			j.Contiguous = uint16(n)
		}
	}
	if st, ok := states.ParseJobState(r["JobState"]); ok {
		j.State = st
	} else {
		t.Fatalf("job %d: unknown state %q", j.JobID, r["JobState"])
	}
	if rs, ok := states.ParseReason(r["Reason"]); ok {
		j.Reason = rs
	} else {
		j.StateDesc = r["Reason"]
	}
	if node, sid, ok := strings.Cut(r["AllocNode:Sid"], ":"); ok {
		j.AllocNode = node
		n, _ := strconv.ParseUint(sid, 10, 32)
		j.AllocSID = uint32(n)
	}
	// ReqB:S:C:T=boards:sockets:cores:threads
	if bsct := strings.Split(r["ReqB:S:C:T"], ":"); len(bsct) == 4 {
		j.BoardsPerNode = u16(bsct[0])
		j.Cores, j.Threads = u16(bsct[2]), u16(bsct[3])
	}
	// NtasksPerN:B:S:C=node:board:socket:core
	if n := strings.Split(r["NtasksPerN:B:S:C"], ":"); len(n) == 4 {
		j.NTasksPerNode, j.NTasksPerBoard = u16(n[0]), u16(n[1])
		j.NTasksPerSocket, j.NTasksPerCore = u16(n[2]), u16(n[3])
	}
	if v, ok := r["MinMemoryNode"]; ok {
		j.MinMemoryMB = megabytes(t, v)
	} else if v, ok := r["MinMemoryCPU"]; ok {
		j.MinMemoryMB = megabytes(t, v)
	}
	if code, sig, ok := strings.Cut(r["ExitCode"], ":"); ok {
		c, _ := strconv.Atoi(code)
		s, _ := strconv.Atoi(sig)
		j.ExitCode = int32(c<<8 | s)
	}
	return j
}
