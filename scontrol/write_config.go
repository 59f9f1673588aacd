package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// `scontrol write config [FILE]` (Slurm's _write_config and slurm_write_ctl_conf): the
// running configuration as a slurm.conf, written to <FILE or $SLURM_CONF>.<time of the
// configuration data>. The settings are those `scontrol show config` lists, grouped under
// Slurm's section headers, an unset one commented out ("#Key="); then the nodes (one line
// for each set of nodes alike) and the partitions, with what differs from the defaults.

// configSections are the section headers in the order Slurm writes them, with the settings
// each takes (those of no section go under OTHER).
var configSections = []struct {
	header string
	keys   []string
}{
	{"CONTROL", []string{"ControlMachine", "ControlAddr", "ClusterName", "SlurmUser", "SlurmdUser", "SlurmctldHost",
		"SlurmctldPort", "SlurmdPort", "BackupAddr", "BackupController"}},
	{"LOGGING & OTHER PATHS", []string{"StateSaveLocation", "SlurmdSpoolDir", "SlurmctldLogFile", "SlurmdLogFile",
		"SlurmctldPidFile", "SlurmdPidFile", "SlurmSchedLogFile", "SlurmEventHandlerLogfile"}},
	{"ACCOUNTING", []string{"AccountingStorageBackupHost", "AccountingStorageEnforce", "AccountingStorageHost",
		"AccountingStoragePort", "AccountingStorageType", "AccountingStorageUser", "AccountingStoreFlags",
		"AcctGatherEnergyType", "AcctGatherFilesystemType", "AcctGatherInterconnectType", "AcctGatherNodeFreq",
		"AcctGatherProfileType", "JobAcctGatherFrequency", "JobAcctGatherType", "ExtSensorsType", "ExtSensorsFreq"}},
	{"SCHEDULING & ALLOCATION", []string{"SelectType", "SelectTypeParameters", "SchedulerParameters",
		"SchedulerTimeSlice", "SchedulerType", "SlurmSchedLogLevel", "PreemptMode", "PreemptType",
		"PreemptExemptTime", "PriorityType", "FastSchedule"}},
	{"TOPOLOGY", []string{"TopologyPlugin"}},
	{"TIMERS", []string{"SlurmctldTimeout", "SlurmdTimeout", "InactiveLimit", "MinJobAge", "KillWait",
		"BatchStartTimeout", "CompleteWait", "EpilogMsgTime", "GetEnvTimeout", "Waittime"}},
	{"POWER", []string{"SuspendExcNodes", "SuspendExcParts", "SuspendProgram", "SuspendRate", "SuspendTime",
		"SuspendTimeout", "ResumeProgram", "ResumeRate", "ResumeTimeout"}},
	{"DEBUG", []string{"SlurmctldDebug", "SlurmdDebug", "DebugFlags"}},
	{"EPILOG & PROLOG", []string{"Epilog", "Prolog", "SrunProlog", "SrunEpilog", "TaskEpilog", "TaskProlog"}},
	{"PROCESS TRACKING", []string{"ProcTrackType"}},
	{"RESOURCE CONFINEMENT", []string{"TaskPlugin", "TaskPluginParam"}},
	{"OTHER", nil},
}

// configNotWritten are show config's lines that describe the running daemon, not settings.
var configNotWritten = []string{"BOOT_TIME", "HASH_VAL", "MULTIPLE_SLURMD", "NEXT_JOB_ID", "SLURM_CONF", "SLURM_VERSION"}

// configWhole are the settings whose value is a command line, written whole (quoted when it
// has spaces); every other value is written up to its first space or parenthesis ("60 sec"
// is 60).
var configWhole = []string{"Epilog", "EpilogSlurmctld", "HealthCheckProgram", "MailProg", "Prolog",
	"PrologSlurmctld", "RebootProgram", "ResumeProgram", "ResvEpilog", "ResvProlog", "SrunEpilog", "SrunProlog",
	"SuspendProgram", "TaskEpilog", "TaskProlog", "UnkillableStepProgram"}

// writeConfig is `write config [FILE]`.
func (c *cli) writeConfig(file string) {
	var conf wire.BuildInfoReply
	if e := c.call(wire.MsgBuildInfo, &wire.BuildInfoRequest{}, &conf); e != nil {
		c.perror("slurm_load_ctl_conf error", e)
		return
	}
	var nodes wire.NodeInfoReply
	if e := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &nodes); e != nil {
		c.perror("slurm_load_node error", e)
		return
	}
	asOf, pairs := configPairs(conf.Text)
	base := file
	if base == "" {
		base = os.Getenv("SLURM_CONF_OUT")
	}
	if base == "" {
		base = c.client().ConfPath
	}
	path := base + "." + asOf
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		c.eprintf("Could not create file %s: %s\n", path, strerror.Text(err))
		return
	}
	var b strings.Builder
	b.WriteString("########################################################\n")
	fmt.Fprintf(&b, "#  Configuration file for Slurm - %s  #\n", asOf)
	b.WriteString("########################################################\n#\n#\n")
	writeConfigPairs(&b, pairs)
	slurmdPort, preemptMode := "", ""
	for _, kv := range pairs {
		switch kv[0] {
		case "SlurmdPort":
			slurmdPort = kv[1]
		case "PreemptMode":
			preemptMode = kv[1]
		}
	}
	writeGroupHeader(&b, "NODES")
	writeConfigNodes(&b, nodes.Nodes, slurmdPort)
	writeGroupHeader(&b, "PARTITIONS")
	for i := range nodes.Partitions {
		writeConfigPartition(&b, &nodes.Partitions[i], preemptMode)
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.eprintf("Could not write file %s: %s\n", path, strerror.Text(err))
		c.exitCode = 1
		return
	}
	c.printf("Slurm config saved to %s\n", path)
}

// configPairs reads show config's text: the time of its data and its settings, in order
// (the block up to the first empty line; the plugin sections after it are not settings of
// slurm.conf).
func configPairs(text string) (asOf string, pairs [][2]string) {
	for i, line := range strings.Split(text, "\n") {
		if i == 0 {
			asOf = strings.TrimPrefix(line, "Configuration data as of ")
			continue
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		pairs = append(pairs, [2]string{strings.TrimSpace(name), strings.TrimPrefix(value, " ")})
	}
	return asOf, pairs
}

// writeConfigPairs writes the settings under their section headers.
func writeConfigPairs(b *strings.Builder, pairs [][2]string) {
	sections := make([][]string, len(configSections))
	for _, kv := range pairs {
		name, value := kv[0], kv[1]
		if containsFold(configNotWritten, name) {
			continue
		}
		name, _, _ = strings.Cut(name, "[") // SlurmctldHost[0]
		line := ""
		switch {
		case value == "" || strings.EqualFold(value, "(null type)") || strings.EqualFold(value, "(null)") ||
			strings.EqualFold(value, "N/A") ||
			strings.EqualFold(name, "DefMemPerNode") && strings.EqualFold(value, "UNLIMITED") ||
			(strings.EqualFold(name, "SlurmctldSyslogDebug") || strings.EqualFold(name, "SlurmdSyslogDebug")) &&
				strings.EqualFold(value, "unknown") ||
			strings.EqualFold(name, "CpuFreqDef") && strings.EqualFold(value, "Unknown"):
			line = "#" + name + "="
		default:
			if !containsFold(configWhole, name) {
				value = firstToken(value)
			}
			if strings.Contains(value, " ") {
				value = `"` + value + `"`
			}
			line = name + "=" + value
		}
		at := len(configSections) - 1
		for i, s := range configSections {
			if containsFold(s.keys, name) {
				at = i
				break
			}
		}
		sections[at] = append(sections[at], line)
	}
	for i, s := range configSections {
		writeGroupHeader(b, s.header)
		for _, l := range sections[i] {
			b.WriteString(l + "\n")
		}
	}
}

// firstToken is C's strtok(value, " ("): the value up to its first space or parenthesis,
// after any leading ones.
func firstToken(v string) string {
	v = strings.TrimLeft(v, " (")
	if i := strings.IndexAny(v, " ("); i >= 0 {
		v = v[:i]
	}
	return v
}

// writeGroupHeader is Slurm's _write_group_header: the header centred in a box of 48 '#'.
func writeGroupHeader(b *strings.Builder, header string) {
	const width = 48
	left := (width-len(header))/2 - 1
	right := left
	if (width-len(header))%2 != 0 {
		right++
	}
	b.WriteString("#\n" + strings.Repeat("#", width) + "\n#")
	b.WriteString(strings.Repeat(" ", left) + header + strings.Repeat(" ", right) + "#\n")
	b.WriteString(strings.Repeat("#", width) + "\n")
}

// writeConfigNodes writes one NodeName line for each set of nodes whose definitions are
// alike, as Slurm does: the sets in reverse order of their first node, each a hostlist.
func writeConfigNodes(b *strings.Builder, nodes []wire.NodeInfo, slurmdPort string) {
	type set struct {
		def   string
		names []string
	}
	var sets []*set
	for i := range nodes {
		n := &nodes[i]
		var d strings.Builder
		if n.Hostname != "" && n.Hostname != n.Name {
			fmt.Fprintf(&d, " NodeHostName=%s", n.Hostname)
		}
		if addr := nodeAddr(n.Addr); addr != "" && addr != n.Name {
			fmt.Fprintf(&d, " NodeAddr=%s", addr)
		}
		if n.Sockets != 0 {
			fmt.Fprintf(&d, " Sockets=%d", n.Sockets)
		}
		if n.CoresPerSocket != 0 {
			fmt.Fprintf(&d, " CoresPerSocket=%d", n.CoresPerSocket)
		}
		if n.ThreadsPerCore != 0 {
			fmt.Fprintf(&d, " ThreadsPerCore=%d", n.ThreadsPerCore)
		}
		if n.Gres != "" && n.Gres != "(null)" {
			fmt.Fprintf(&d, " Gres=%s", n.Gres)
		}
		if n.RealMemory > 1 {
			fmt.Fprintf(&d, " RealMemory=%d", n.RealMemory)
		}
		if n.TmpDisk != 0 {
			fmt.Fprintf(&d, " TmpDisk=%d", n.TmpDisk)
		}
		if n.Weight != 1 {
			fmt.Fprintf(&d, " Weight=%d", n.Weight)
		}
		if n.Features != "" && n.Features != "(null)" {
			fmt.Fprintf(&d, " Feature=%s", n.Features)
		}
		if n.Port != 0 && fmt.Sprint(n.Port) != slurmdPort {
			fmt.Fprintf(&d, " Port=%d", n.Port)
		}
		def := d.String()
		found := false
		for _, s := range sets {
			if s.def == def {
				s.names, found = append(s.names, n.Name), true
				break
			}
		}
		if !found {
			sets = append(sets, &set{def: def, names: []string{n.Name}})
		}
	}
	for i := len(sets) - 1; i >= 0; i-- {
		fmt.Fprintf(b, "NodeName=%s%s\n", hostlist.Compress(sets[i].names), sets[i].def)
	}
}

// writeConfigPartition writes one PartitionName line: what differs from a partition's
// defaults. preemptMode is the cluster's: a partition shows it when it has none of its own.
func writeConfigPartition(b *strings.Builder, p *wire.PartitionInfo, preemptMode string) {
	fmt.Fprintf(b, "PartitionName=%s", p.Name)
	notAll := func(key, v string) {
		if v != "" && !strings.EqualFold(v, "ALL") {
			fmt.Fprintf(b, " %s=%s", key, v)
		}
	}
	notAll("AllocNodes", p.AllocNodes)
	notAll("AllowAccounts", p.AllowAccounts)
	notAll("AllowGroups", p.AllowGroups)
	notAll("AllowQos", p.AllowQos)
	if p.Alternate != "" && p.Alternate != "(null)" {
		fmt.Fprintf(b, " Alternate=%s", p.Alternate)
	}
	if p.Default {
		b.WriteString(" Default=YES")
	}
	switch {
	case p.DefMemPerCPU != 0:
		fmt.Fprintf(b, " DefMemPerCPU=%d", p.DefMemPerCPU)
	case p.DefMemPerNode != 0:
		fmt.Fprintf(b, " DefMemPerNode=%d", p.DefMemPerNode)
	}
	if (p.AllowAccounts == "" || strings.EqualFold(p.AllowAccounts, "ALL")) && p.DenyAccounts != "" && p.DenyAccounts != "(null)" {
		fmt.Fprintf(b, " DenyAccounts=%s", p.DenyAccounts)
	}
	if (p.AllowQos == "" || strings.EqualFold(p.AllowQos, "ALL")) && p.DenyQos != "" && p.DenyQos != "(null)" {
		fmt.Fprintf(b, " DenyQos=%s", p.DenyQos)
	}
	switch p.DefaultTime {
	case wire.NoVal:
	case wire.Infinite:
		b.WriteString(" DefaultTime=UNLIMITED")
	default:
		fmt.Fprintf(b, " DefaultTime=%s", slurmtime.FormatElapsed(int64(p.DefaultTime)*60))
	}
	flag := func(on bool, s string) {
		if on {
			b.WriteString(s)
		}
	}
	flag(p.DisableRootJobs, " DisableRootJobs=YES")
	flag(p.ExclusiveUser, " ExclusiveUser=YES")
	if p.GraceTime != 0 {
		fmt.Fprintf(b, " GraceTime=%d", p.GraceTime)
	}
	flag(p.Hidden, " Hidden=YES")
	flag(p.LLN, " LLN=YES")
	if p.MaxCPUsPerNode != wire.Infinite {
		fmt.Fprintf(b, " MaxCPUsPerNode=%d", p.MaxCPUsPerNode)
	}
	switch {
	case p.MaxMemPerCPU != 0:
		fmt.Fprintf(b, " MaxMemPerCPU=%d", p.MaxMemPerCPU)
	case p.MaxMemPerNode != 0:
		fmt.Fprintf(b, " MaxMemPerNode=%d", p.MaxMemPerNode)
	}
	if p.MaxNodes != wire.Infinite {
		fmt.Fprintf(b, " MaxNodes=%d", p.MaxNodes)
	}
	if p.MaxTime != wire.Infinite {
		fmt.Fprintf(b, " MaxTime=%s", slurmtime.FormatElapsed(int64(p.MaxTime)*60))
	}
	if p.MinNodes != 1 {
		fmt.Fprintf(b, " MinNodes=%d", p.MinNodes)
	}
	if p.Nodes != "" && p.Nodes != "(null)" {
		fmt.Fprintf(b, " Nodes=%s", p.Nodes)
	}
	if p.PreemptMode != "" && !strings.EqualFold(p.PreemptMode, preemptMode) {
		fmt.Fprintf(b, " PreemptMode=%s", p.PreemptMode)
	}
	if p.PriorityJobFactor != 1 {
		fmt.Fprintf(b, " PriorityJobFactor=%d", p.PriorityJobFactor)
	}
	if p.PriorityTier != 1 {
		fmt.Fprintf(b, " PriorityTier=%d", p.PriorityTier)
	}
	if p.QOS != "" && p.QOS != "N/A" && p.QOS != "(null)" {
		fmt.Fprintf(b, " QOS=%s", p.QOS)
	}
	flag(p.ReqResv, " ReqResv=YES")
	flag(p.RootOnly, " RootOnly=YES")
	switch st := strings.ToUpper(p.SelectTypeParameters); {
	case strings.Contains(st, "CR_CORE"):
		b.WriteString(" SelectTypeParameters=CR_CORE")
	case strings.Contains(st, "CR_SOCKET"):
		b.WriteString(" SelectTypeParameters=CR_SOCKET")
	}
	if os := p.OverSubscribe; os != "" && os != "NO" && os != "YES:1" {
		fmt.Fprintf(b, " OverSubscribe=%s", os)
	}
	switch st := strings.ToUpper(p.State); st {
	case "UP", "DOWN", "INACTIVE", "DRAIN":
		fmt.Fprintf(b, " State=%s", st)
	default:
		b.WriteString(" State=UNKNOWN")
	}
	if p.BillingWeights != "" && p.BillingWeights != "(null)" {
		fmt.Fprintf(b, " TRESBillingWeights=%s", p.BillingWeights)
	}
	b.WriteString("\n")
}

// containsFold says whether list holds s, compared without case as Slurm's xstrcasecmp.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
