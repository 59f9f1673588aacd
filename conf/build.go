package conf

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/rlimits"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// build turns what the loader collected into a Config: typed fields with Slurm's defaults,
// expanded nodes and partitions, and the checks Slurm's daemons make after parsing.
func (l *loader) build(path string) *Config {
	c := &Config{Path: path, Files: l.files, Raw: l.raw, nodeIndex: map[string]nodeRef{}}
	l.removedKeys()
	l.unimplemented() // unimplemented.go
	l.controllers(c)
	l.scalars(c)
	l.priority(c)
	l.buildNodes(c)
	l.buildNodeSets(c)
	l.buildPartitions(c)
	l.unimplementedPartitions(c) // unimplemented.go
	l.buildDownNodes(c)
	l.buildFrontends(c)
	l.orbit(c)
	return c
}

// removedKeys reports keys Slurm 22.05 still parses only to refuse (or ignore) them.
func (l *loader) removedKeys() {
	if v, ok := l.raw["FastSchedule"]; ok {
		switch n, _ := parseUint(KindUint16, "FastSchedule", v.Value); n {
		case 1:
			l.warnf("FastSchedule", "Ignoring obsolete FastSchedule=1 option. Please remove from your configuration.")
		case 2:
			e := l.errorf("FastSchedule", "The FastSchedule option has been removed. The FastSchedule=2 functionality is available through the SlurmdParameters=config_overrides option.")
			e.Fatal, e.Daemon = true, true // Slurm checks it in slurmctld only
		default:
			e := l.errorf("FastSchedule", "The FastSchedule option has been removed. Please update your configuration.")
			e.Fatal, e.Daemon = true, true
		}
	}
	if _, ok := l.raw["AccountingStorageLoc"]; ok {
		l.errorf("AccountingStorageLoc", "The AccountingStorageLoc option has been removed. It is safe to remove from your configuration.").Fatal = true
	}
	if _, ok := l.raw["AccountingStoreJobComment"]; ok {
		l.errorf("AccountingStoreJobComment", "The AccountingStoreJobComment option has been removed, please use AccountingStoreFlags=job_comment option instead.").Fatal = true
	}
	if _, ok := l.raw["SallocDefaultCommand"]; ok {
		l.errorf("SallocDefaultCommand", "SallocDefaultCommand has been removed. Please consider setting LaunchParameters=use_interactive_step instead.").Fatal = true
	}
	if _, ok := l.raw["SchedulerAuth"]; ok {
		l.warnf("SchedulerAuth", "The option \"SchedulerAuth\" is defunct, see man slurm.conf.")
	}
	if _, ok := l.raw["SbcastParameters"]; ok {
		l.warnf("SbcastParameters", "SbcastParameters has been renamed to BcastParameters. Please update your configuration.")
	}
	if _, ok := l.raw["KeepAliveTime"]; ok {
		l.warnf("KeepAliveTime", "KeepAliveTime parameter has moved to CommunicationParameters. Please update your config.")
	}
	if v, ok := l.raw["CryptoType"]; ok {
		if _, set := l.raw["CredType"]; !set {
			// Slurm reads the old name when the new one is absent.
			l.raw["CredType"] = Value{Key: "CredType", Value: strings.Replace(v.Value, "crypto/", "cred/", 1), File: v.File, Line: v.Line}
		}
	}
}

// controllers fills SlurmctldHosts from SlurmctldHost lines, or from the legacy
// ControlMachine/ControlAddr/BackupController/BackupAddr keys.
func (l *loader) controllers(c *Config) {
	for _, h := range l.ctldHosts {
		v := h.value
		open, close := strings.IndexByte(v, '('), strings.IndexByte(v, ')')
		if (open >= 0) != (close >= 0) || (close >= 0 && (close != len(v)-1 || close != strings.LastIndexByte(v, ')'))) ||
			(open >= 0 && close < open) {
			l.errs.add(h.pos.file, h.pos.line, "SlurmctldHost", "Bad value \"%s\" for SlurmctldHost", v)
			continue
		}
		ch := ControllerHost{Name: v, Addr: v}
		if open >= 0 {
			ch = ControllerHost{Name: v[:open], Addr: v[open+1 : close]}
		}
		dup := false
		for _, o := range c.SlurmctldHosts {
			if o.Name == ch.Name {
				l.errs.add(h.pos.file, h.pos.line, "SlurmctldHost", "Duplicate SlurmctldHost records: %s", ch.Name)
				dup = true
			}
		}
		if !dup {
			c.SlurmctldHosts = append(c.SlurmctldHosts, ch)
		}
	}
	legacy := []string{"ControlMachine", "ControlAddr", "BackupController", "BackupAddr"}
	if len(l.ctldHosts) > 0 && len(c.SlurmctldHosts) == 0 {
		l.errs.add(c.Path, 0, "SlurmctldHost", "No SlurmctldHost defined.")
		return
	}
	if len(l.ctldHosts) > 0 {
		for _, k := range legacy {
			if _, ok := l.raw[k]; ok {
				l.clientWarnf(k, "Ignoring %s since SlurmctldHost is set.", k)
			}
		}
		return
	}
	cm, ok := l.raw["ControlMachine"]
	if !ok {
		l.errs.add(c.Path, 0, "SlurmctldHost", "No SlurmctldHost defined.")
		return
	}
	addr := cm.Value
	if a, ok := l.raw["ControlAddr"]; ok {
		addr = a.Value
	} else if strings.Contains(cm.Value, ",") {
		l.errorf("ControlMachine", "ControlMachine has multiple host names, so ControlAddr must be specified.")
		return
	}
	c.SlurmctldHosts = append(c.SlurmctldHosts, ControllerHost{Name: cm.Value, Addr: addr})
	if b, ok := l.raw["BackupController"]; ok {
		addr := b.Value
		if a, ok := l.raw["BackupAddr"]; ok {
			addr = a.Value
		}
		c.SlurmctldHosts = append(c.SlurmctldHosts, ControllerHost{Name: b.Value, Addr: addr})
	} else if _, ok := l.raw["BackupAddr"]; ok {
		l.errorf("BackupAddr", "BackupAddr specified without BackupController")
	}
}

// scalars fills the typed top-level fields and checks the values Slurm checks.
func (l *loader) scalars(c *Config) {
	if cn, ok := l.raw["ClusterName"]; ok {
		// Slurm lower-cases the cluster name.
		c.ClusterName = strings.ToLower(cn.Value)
	} else {
		l.errs.add(c.Path, 0, "ClusterName", "ClusterName needs to be specified")
	}
	c.SlurmctldAddr = c.str("SlurmctldAddr")
	c.SlurmctldPort, c.SlurmctldPortCount = 6817, 1
	if v, ok := l.raw["SlurmctldPort"]; ok {
		lo, hi, isRange := strings.Cut(v.Value, "-")
		a, err := strconv.ParseUint(lo, 10, 16)
		bad := err != nil || a == 0
		b := a
		if !bad && isRange {
			b, err = strconv.ParseUint(hi, 10, 16)
			bad = err != nil || b <= a
		}
		if bad {
			l.errorf("SlurmctldPort", "Invalid SlurmctldPort %s", v.Value)
		} else {
			c.SlurmctldPort, c.SlurmctldPortCount = uint16(a), uint16(b-a+1)
		}
	}
	c.SlurmdPort = uint32(c.uint("SlurmdPort", 6818))
	c.SlurmUser = c.str("SlurmUser")
	c.SlurmdUser = c.str("SlurmdUser")
	c.AuthType = or(c.str("AuthType"), "auth/munge")
	c.AuthInfo = c.str("AuthInfo")
	c.CredType = or(c.str("CredType"), "cred/munge")
	c.PluginDir = c.str("PluginDir")
	c.StateSaveLocation = or(c.str("StateSaveLocation"), "/var/spool")
	c.SlurmdSpoolDir = or(c.str("SlurmdSpoolDir"), "/var/spool/slurmd")
	c.SlurmctldPidFile = or(c.str("SlurmctldPidFile"), "/var/run/slurmctld.pid")
	c.SlurmdPidFile = or(c.str("SlurmdPidFile"), "/var/run/slurmd.pid")
	c.SlurmctldLogFile = c.str("SlurmctldLogFile")
	c.SlurmdLogFile = c.str("SlurmdLogFile")
	c.SlurmctldDebug = or(c.str("SlurmctldDebug"), "info")
	c.SlurmdDebug = or(c.str("SlurmdDebug"), "info")
	c.DebugFlags = c.str("DebugFlags")
	for _, k := range []string{"SlurmctldDebug", "SlurmdDebug"} {
		if v, ok := l.raw[k]; ok && !validDebugLevel(v.Value) {
			l.errorf(k, "Invalid %s %s", k, v.Value)
		}
	}

	c.MessageTimeout = uint16(c.uint("MessageTimeout", 10))
	c.SlurmctldTimeout = uint16(c.uint("SlurmctldTimeout", 120))
	c.SlurmdTimeout = uint16(c.uint("SlurmdTimeout", 300))
	c.KillWait = uint16(c.uint("KillWait", 30))
	c.MinJobAge = uint32(c.uint("MinJobAge", 300))
	if c.IsSet("MinJobAge") && c.MinJobAge < 2 {
		l.warnf("MinJobAge", "MinJobAge must be at least 2")
		c.MinJobAge = 2
	}
	c.OverTimeLimit = uint16(c.uint("OverTimeLimit", 0))
	c.InactiveLimit = uint16(c.uint("InactiveLimit", 0))
	c.WaitTime = uint16(c.uint("WaitTime", 0))
	c.BatchStartTimeout = uint16(c.uint("BatchStartTimeout", 10))
	c.CompleteWait = uint16(c.uint("CompleteWait", 0))
	c.UnkillableStepTimeout = uint16(c.uint("UnkillableStepTimeout", 60))
	c.TCPTimeout = uint16(c.uint("TCPTimeout", 2))
	c.HealthCheckInterval = uint16(c.uint("HealthCheckInterval", 0))
	c.HealthCheckProgram = c.str("HealthCheckProgram")
	c.HealthCheckNodeState = HealthCheckAny
	if v, ok := c.Get("HealthCheckNodeState"); ok {
		c.HealthCheckNodeState = l.parseHealthCheckNodeState(v) // health_check.go
	}
	if c.MessageTimeout > 100 {
		l.warnf("MessageTimeout", "MessageTimeout is too high for effective fault-tolerance")
	}

	c.SchedulerType = or(c.str("SchedulerType"), "sched/backfill")
	c.SchedulerParameters = c.str("SchedulerParameters")
	c.SelectType = or(c.str("SelectType"), "select/cons_tres")
	c.SelectTypeParameters = c.str("SelectTypeParameters")
	if c.SelectTypeParameters != "" {
		l.checkSelectTypeParameters(c.SelectTypeParameters) // select_type.go
	}
	c.PriorityType = or(c.str("PriorityType"), "priority/basic")
	c.PreemptType = or(c.str("PreemptType"), "preempt/none")
	c.PreemptMode = or(c.str("PreemptMode"), "OFF")
	l.checkPreempt(c) // preempt.go
	if v, err := slurmtime.ParseTimeLimitSecs(c.str("PreemptExemptTime")); err == nil && v != slurmtime.Infinite {
		c.PreemptExemptSecs = int64(v)
	}
	c.ProctrackType = or(c.str("ProctrackType"), "proctrack/cgroup")
	c.TaskPlugin = or(c.str("TaskPlugin"), "task/none")
	if v, ok := c.Raw["TaskPluginParam"]; ok {
		l.checkTaskPluginParam(v.Value) // task_plugin_param.go
	}
	l.propagateRlimits(c)
	c.MpiDefault = or(c.str("MpiDefault"), "none")
	c.SwitchType = or(c.str("SwitchType"), "switch/none")
	c.TopologyPlugin = or(c.str("TopologyPlugin"), "topology/none")
	c.JobAcctGatherType = or(c.str("JobAcctGatherType"), "jobacct_gather/none")
	c.AccountingStorageType = or(c.str("AccountingStorageType"), "accounting_storage/none")
	switch c.AccountingStorageType {
	case AccountingNone, AccountingSlurmdbd, AccountingOrbit:
	default:
		// Slurm's slurmctld dies on a plugin it cannot load; Orbit refuses it up front.
		l.errorf("AccountingStorageType", "AccountingStorageType=%s is not supported (use %s, %s or %s)",
			c.AccountingStorageType, AccountingOrbit, AccountingSlurmdbd, AccountingNone)
	}
	c.JobCompType = or(c.str("JobCompType"), "jobcomp/none")
	c.GresTypes = c.str("GresTypes")
	c.Licenses = c.str("Licenses")

	c.TreeWidth = uint16(c.uint("TreeWidth", 50))
	if c.IsSet("TreeWidth") && c.TreeWidth == 0 {
		l.clientWarnf("TreeWidth", "TreeWidth=0 is invalid")
		c.TreeWidth = 50
	}
	c.MaxJobCount = uint32(c.uint("MaxJobCount", 10000))
	if c.IsSet("MaxJobCount") && c.MaxJobCount == 0 {
		l.warnf("MaxJobCount", "MaxJobCount=0, No jobs permitted")
	}
	c.FirstJobId = uint32(c.uint("FirstJobId", 1))
	if c.IsSet("FirstJobId") && c.FirstJobId == 0 {
		l.errorf("FirstJobId", "FirstJobId cannot be zero")
	}
	c.MaxJobId = uint32(c.uint("MaxJobId", 67043328))
	if c.MaxJobId > 67043328 {
		l.clientWarnf("MaxJobId", "MaxJobId can not exceed MAX_JOB_ID, resetting value")
		c.MaxJobId = 67043328
	}
	if c.FirstJobId > c.MaxJobId {
		l.warnf("FirstJobId", "FirstJobId > MaxJobId")
	}
	c.MaxArraySize = uint32(c.uint("MaxArraySize", 1001))
	if c.MaxArraySize > 4000001 {
		l.clientWarnf("MaxArraySize", "MaxArraySize value (%d) is greater than 4000001", c.MaxArraySize)
	}
	c.MaxStepCount = uint32(c.uint("MaxStepCount", 40000))
	c.MaxTasksPerNode = uint16(c.uint("MaxTasksPerNode", 512))
	c.ReturnToService = uint16(c.uint("ReturnToService", 0))
	c.JobRequeue = uint16(c.uint("JobRequeue", 1))
	c.KillOnBadExit = uint16(c.uint("KillOnBadExit", 0))
	c.DisableRootJobs = c.boolean("DisableRootJobs")
	c.EnforcePartLimits = "NO"
	if v, ok := c.Get("EnforcePartLimits"); ok {
		switch strings.ToLower(v) {
		case "yes", "up", "true", "1", "any":
			c.EnforcePartLimits = "ANY"
		case "no", "down", "false", "0":
		case "all":
			c.EnforcePartLimits = "ALL"
		default:
			l.errorf("EnforcePartLimits", "Bad EnforcePartLimits: %s", v)
		}
	}
	c.UsePAM = c.boolean("UsePAM")

	c.Prolog, c.Epilog = c.str("Prolog"), c.str("Epilog")
	c.PrologSlurmctld, c.EpilogSlurmctld = c.str("PrologSlurmctld"), c.str("EpilogSlurmctld")
	c.PrologFlags = c.str("PrologFlags")
	if v, ok := c.Raw["PrologFlags"]; ok {
		l.checkPrologFlags(v.Value, c.ProctrackType) // prolog_flags.go
	}
	c.TaskProlog, c.TaskEpilog = c.str("TaskProlog"), c.str("TaskEpilog")
	c.SrunProlog, c.SrunEpilog = c.str("SrunProlog"), c.str("SrunEpilog")
	c.MailProg = or(c.str("MailProg"), "/bin/mail")

	c.DefMemPerCPU = c.uint("DefMemPerCPU", 0)
	c.DefMemPerNode = c.uint("DefMemPerNode", 0)
	c.MaxMemPerCPU = c.uint("MaxMemPerCPU", 0)
	c.MaxMemPerNode = c.uint("MaxMemPerNode", 0)
	if c.IsSet("DefMemPerCPU") && c.IsSet("DefMemPerNode") {
		l.clientWarnf("DefMemPerCPU", "DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode")
		c.DefMemPerCPU = 0
	}
	if c.IsSet("MaxMemPerCPU") && c.IsSet("MaxMemPerNode") {
		l.clientWarnf("MaxMemPerCPU", "MaxMemPerCPU ignored, since it's mutually exclusive with MaxMemPerNode")
		c.MaxMemPerCPU = 0
	}
	for _, k := range []string{"DefMemPerNode", "MaxMemPerNode", "DefMemPerCPU", "MaxMemPerCPU"} {
		if v := c.uint(k, 0); v == Infinite64 {
			// UNLIMITED is Slurm's "no limit", the same as not setting the key.
			switch k {
			case "DefMemPerNode":
				c.DefMemPerNode = 0
			case "MaxMemPerNode":
				c.MaxMemPerNode = 0
			case "DefMemPerCPU":
				c.DefMemPerCPU = 0
			case "MaxMemPerCPU":
				c.MaxMemPerCPU = 0
			}
		}
	}
}

func validDebugLevel(s string) bool {
	switch strings.ToLower(s) {
	case "quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5":
		return true
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// isPlainName reports whether expr is a single name that hostlist expansion would return
// unchanged: the common case of one node per line, kept off the general hostlist path.
func isPlainName(expr string) bool {
	return expr != "" && !strings.ContainsAny(expr, "[],- \t")
}

// expand wraps hostlist.Expand with Slurm's message for a bad expression.
func (l *loader) expand(pos position, key, expr string) ([]string, bool) {
	if isPlainName(expr) {
		return []string{expr}, true
	}
	if names, ok := expandRange(nil, expr); ok {
		return names, true
	}
	return l.expandHostlist(pos, key, expr)
}

// expandInto is expand reusing dst's storage for a plain name; the caller must not keep the
// slice (the strings in it may be kept).
func (l *loader) expandInto(dst []string, pos position, key, expr string) ([]string, bool) {
	if isPlainName(expr) {
		return append(dst[:0], expr), true
	}
	if names, ok := expandRange(dst, expr); ok {
		return names, true
	}
	return l.expandHostlist(pos, key, expr)
}

func (l *loader) expandHostlist(pos position, key, expr string) ([]string, bool) {
	names, err := hostlist.Expand(expr)
	if err != nil {
		l.errs.add(pos.file, pos.line, key, "Unable to create %s list from %s", key, expr)
		return nil, false
	}
	return names, true
}

func u16(v subVals, key string, def uint16) uint16 {
	s, ok := v.get(key)
	if !ok {
		return def
	}
	n, _ := parseUint(KindUint16, key, s)
	return uint16(n)
}

func u32(v subVals, key string, def uint32) uint32 {
	s, ok := v.get(key)
	if !ok {
		return def
	}
	n, _ := parseUint(KindUint32, key, s)
	return uint32(n)
}

func u64(v subVals, key string, def uint64) uint64 {
	s, ok := v.get(key)
	if !ok {
		return def
	}
	n, _ := parseUint(KindUint64, key, s)
	return n
}

func boolKey(v subVals, key string) bool {
	s, ok := v.get(key)
	if !ok {
		return false
	}
	b, _ := parseBool(key, s)
	return b
}

// propagateRlimits reads PropagateResourceLimits / PropagateResourceLimitsExcept (the latter
// wins when given, as in Slurm's read_config). A bad name is Slurm's two lines, "Bad rlimit
// name: X" and "Bad PropagateResourceLimits: VALUE", which Slurm prints without a file and
// line, so these errors carry none either.
func (l *loader) propagateRlimits(c *Config) {
	_, exceptSet := l.raw["PropagateResourceLimitsExcept"]
	s, err := rlimits.FromConf(c.str("PropagateResourceLimits"), c.str("PropagateResourceLimitsExcept"), exceptSet)
	if ce, ok := err.(*rlimits.ConfError); ok {
		l.errs.add("", 0, ce.Key, "%s", ce.Err.Error())
		l.errs.add("", 0, ce.Key, "%s", ce.Error())
		return
	}
	c.PropagateRlimits = s
}
