package conf

import "strings"

// Kind is how Slurm's parser types a key's value (s_p_type in parse_config.h): it decides
// which values are accepted and the error text for a bad one.
type Kind int

// The kinds of slurm.conf values.
const (
	KindString Kind = iota // any text
	KindUint16             // unsigned, ≤ 65535; UNLIMITED/INFINITE = 65535
	KindUint32             // unsigned, k/K suffix ×1024; UNLIMITED/INFINITE = 4294967295
	KindUint64             // as KindUint32, 64 bits
	KindBool               // yes/up/true/1 or no/down/false/0
	KindLines              // a repeatable line with its own sub-keys (NodeName=, PartitionName=, ...)
)

// ShowFormat says how `scontrol show config` prints a key's value.
type ShowFormat int

// The show config formats seen in Slurm 22.05's output.
const (
	ShowPlain    ShowFormat = iota // the value, "(null)" when unset and without default
	ShowSec                        // "N sec"
	ShowMin                        // "N min"
	ShowUsec                       // "N usec"
	ShowPercent                    // "N percent"
	ShowNodesMin                   // "N nodes/min"
	ShowYesNo                      // "Yes" / "No"
	ShowUser                       // "name(uid)"
	ShowMem                        // megabytes, "UNLIMITED" for 0 or unset
	ShowEmpty                      // the value, "" (not "(null)") when unset
	ShowNone                       // not printed by show config (legacy, secret or line keys)
)

// Key is one top-level key of slurm.conf: its canonical spelling, value kind, Slurm's default
// as `scontrol show config` prints it ("" = none, printed "(null)"), and how show config
// prints it. Orbit keys carry Orbit=true and a Doc string.
type Key struct {
	Name    string
	Kind    Kind
	Default string
	Show    ShowFormat
	Orbit   bool
	Doc     string
}

// SlurmKeys is every top-level key Slurm 22.05 accepts (slurm_conf_options[] in
// src/common/read_config.c), sorted case-insensitively. Keys Slurm has removed (CacheGroups,
// SchedulerPort, CheckpointType, ...) are absent, so they are refused as unrecognized, as Slurm
// refuses them. Defaults are the values the reference prints when the key is not set.
var SlurmKeys = []Key{
	{Name: "AccountingStorageBackupHost", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AccountingStorageEnforce", Kind: KindString, Default: "none", Show: ShowPlain},
	{Name: "AccountingStorageExternalHost", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AccountingStorageHost", Kind: KindString, Default: "localhost", Show: ShowPlain},
	{Name: "AccountingStorageLoc", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "AccountingStorageParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AccountingStoragePass", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "AccountingStoragePort", Kind: KindUint16, Default: "0", Show: ShowPlain},
	{Name: "AccountingStorageTRES", Kind: KindString, Default: "cpu,mem,energy,node,billing,fs/disk,vmem,pages", Show: ShowPlain},
	{Name: "AccountingStorageType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AccountingStorageUser", Kind: KindString, Default: "root", Show: ShowPlain},
	{Name: "AccountingStoreFlags", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AccountingStoreJobComment", Kind: KindBool, Default: "", Show: ShowNone},
	{Name: "AcctGatherEnergyType", Kind: KindString, Default: "acct_gather_energy/none", Show: ShowPlain},
	{Name: "AcctGatherFilesystemType", Kind: KindString, Default: "acct_gather_filesystem/none", Show: ShowPlain},
	{Name: "AcctGatherInfinibandType", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "AcctGatherInterconnectType", Kind: KindString, Default: "acct_gather_interconnect/none", Show: ShowPlain},
	{Name: "AcctGatherNodeFreq", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "AcctGatherProfileType", Kind: KindString, Default: "acct_gather_profile/none", Show: ShowPlain},
	{Name: "AllowSpecResourcesUsage", Kind: KindBool, Default: "No", Show: ShowYesNo},
	{Name: "AuthAltParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AuthAltTypes", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AuthInfo", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "AuthType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "BackupAddr", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "BackupController", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "BatchStartTimeout", Kind: KindUint16, Default: "10", Show: ShowSec},
	{Name: "BcastExclude", Kind: KindString, Default: "/lib,/usr/lib,/lib64,/usr/lib64", Show: ShowPlain},
	{Name: "BcastParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "BurstBufferParameters", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "BurstBufferType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "CliFilterPlugins", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ClusterName", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "CommunicationParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "CompleteWait", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "ControlAddr", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "ControlMachine", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "CoreSpecPlugin", Kind: KindString, Default: "core_spec/none", Show: ShowPlain},
	{Name: "CpuFreqDef", Kind: KindString, Default: "Unknown", Show: ShowPlain},
	{Name: "CpuFreqGovernors", Kind: KindString, Default: "OnDemand,Performance,UserSpace", Show: ShowPlain},
	{Name: "CredType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "CryptoType", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "DebugFlags", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "DefCPUPerGPU", Kind: KindUint64, Default: "", Show: ShowNone},
	{Name: "DefMemPerCPU", Kind: KindUint64, Default: "", Show: ShowMem},
	{Name: "DefMemPerGPU", Kind: KindUint64, Default: "", Show: ShowNone},
	{Name: "DefMemPerNode", Kind: KindUint64, Default: "UNLIMITED", Show: ShowMem},
	{Name: "DependencyParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "DisableRootJobs", Kind: KindBool, Default: "No", Show: ShowYesNo},
	{Name: "DownNodes", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "EioTimeout", Kind: KindUint16, Default: "60", Show: ShowPlain},
	{Name: "EnforcePartLimits", Kind: KindString, Default: "NO", Show: ShowPlain},
	{Name: "Epilog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "EpilogMsgTime", Kind: KindUint32, Default: "2000", Show: ShowUsec},
	{Name: "EpilogSlurmctld", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ExtSensorsFreq", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "ExtSensorsType", Kind: KindString, Default: "ext_sensors/none", Show: ShowPlain},
	{Name: "FairShareDampeningFactor", Kind: KindUint16, Default: "", Show: ShowNone},
	{Name: "FastSchedule", Kind: KindUint16, Default: "", Show: ShowNone},
	{Name: "FederationParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "FirstJobId", Kind: KindUint32, Default: "1", Show: ShowPlain},
	{Name: "FrontendName", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "GetEnvTimeout", Kind: KindUint16, Default: "2", Show: ShowSec},
	{Name: "GpuFreqDef", Kind: KindString, Default: "high,memory=high", Show: ShowPlain},
	{Name: "GresTypes", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "GroupUpdateForce", Kind: KindUint16, Default: "1", Show: ShowPlain},
	{Name: "GroupUpdateTime", Kind: KindUint16, Default: "600", Show: ShowSec},
	{Name: "HealthCheckInterval", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "HealthCheckNodeState", Kind: KindString, Default: "ANY", Show: ShowPlain},
	{Name: "HealthCheckProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "InactiveLimit", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "InteractiveStepOptions", Kind: KindString, Default: "--interactive --preserve-env --pty $SHELL", Show: ShowPlain},
	{Name: "JobAcctGatherFrequency", Kind: KindString, Default: "30", Show: ShowPlain},
	{Name: "JobAcctGatherParams", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "JobAcctGatherType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "JobCompHost", Kind: KindString, Default: "localhost", Show: ShowPlain},
	{Name: "JobCompLoc", Kind: KindString, Default: "/var/log/slurm_jobcomp.log", Show: ShowPlain},
	{Name: "JobCompParams", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "JobCompPass", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "JobCompPort", Kind: KindUint32, Default: "0", Show: ShowPlain},
	{Name: "JobCompType", Kind: KindString, Default: "jobcomp/none", Show: ShowPlain},
	{Name: "JobCompUser", Kind: KindString, Default: "root", Show: ShowPlain},
	{Name: "JobContainerType", Kind: KindString, Default: "job_container/none", Show: ShowPlain},
	{Name: "JobCredentialPrivateKey", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "JobCredentialPublicCertificate", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "JobFileAppend", Kind: KindUint16, Default: "0", Show: ShowPlain},
	{Name: "JobRequeue", Kind: KindUint16, Default: "1", Show: ShowPlain},
	{Name: "JobSubmitPlugins", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "KeepAliveTime", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "KillOnBadExit", Kind: KindUint16, Default: "0", Show: ShowPlain},
	{Name: "KillWait", Kind: KindUint16, Default: "30", Show: ShowSec},
	{Name: "LaunchParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "LaunchType", Kind: KindString, Default: "launch/slurm", Show: ShowPlain},
	{Name: "Licenses", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "LogTimeFormat", Kind: KindString, Default: "iso8601_ms", Show: ShowPlain},
	{Name: "MailDomain", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "MailProg", Kind: KindString, Default: "/bin/mail", Show: ShowPlain},
	{Name: "MaxArraySize", Kind: KindUint32, Default: "1001", Show: ShowPlain},
	{Name: "MaxDBDMsgs", Kind: KindUint32, Default: "0", Show: ShowPlain},
	{Name: "MaxJobCount", Kind: KindUint32, Default: "10000", Show: ShowPlain},
	{Name: "MaxJobId", Kind: KindUint32, Default: "67043328", Show: ShowPlain},
	{Name: "MaxMemPerCPU", Kind: KindUint64, Default: "", Show: ShowMem},
	{Name: "MaxMemPerNode", Kind: KindUint64, Default: "UNLIMITED", Show: ShowMem},
	{Name: "MaxNodeCount", Kind: KindUint32, Default: "", Show: ShowPlain}, // shown as the node count when unset
	{Name: "MaxStepCount", Kind: KindUint32, Default: "40000", Show: ShowPlain},
	{Name: "MaxTasksPerNode", Kind: KindUint16, Default: "512", Show: ShowPlain},
	{Name: "MCSParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "MCSPlugin", Kind: KindString, Default: "mcs/none", Show: ShowPlain},
	{Name: "MessageTimeout", Kind: KindUint16, Default: "10", Show: ShowSec},
	{Name: "MinJobAge", Kind: KindUint32, Default: "300", Show: ShowSec},
	{Name: "MpiDefault", Kind: KindString, Default: "none", Show: ShowPlain},
	{Name: "MpiParams", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "NodeFeaturesPlugins", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "NodeName", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "NodeSet", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "OverTimeLimit", Kind: KindUint16, Default: "0", Show: ShowMin},
	{Name: "PartitionName", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "PluginDir", Kind: KindString, Default: "/usr/lib/x86_64-linux-gnu/slurm-wlm", Show: ShowPlain},
	{Name: "PlugStackConfig", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PowerParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PowerPlugin", Kind: KindString, Default: "", Show: ShowEmpty},
	{Name: "PreemptExemptTime", Kind: KindString, Default: "00:00:00", Show: ShowPlain},
	{Name: "PreemptMode", Kind: KindString, Default: "OFF", Show: ShowPlain},
	{Name: "PreemptType", Kind: KindString, Default: "preempt/none", Show: ShowPlain},
	{Name: "PrEpParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PrEpPlugins", Kind: KindString, Default: "prep/script", Show: ShowPlain},
	{Name: "PriorityCalcPeriod", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PriorityDecayHalfLife", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PriorityFavorSmall", Kind: KindBool, Default: "", Show: ShowNone},
	{Name: "PriorityFlags", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PriorityMaxAge", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PriorityParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PrioritySiteFactorParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PrioritySiteFactorPlugin", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PriorityType", Kind: KindString, Default: "priority/basic", Show: ShowPlain},
	{Name: "PriorityUsageResetPeriod", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PriorityWeightAge", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightAssoc", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightFairshare", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightJobSize", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightPartition", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightQOS", Kind: KindUint32, Default: "", Show: ShowNone},
	{Name: "PriorityWeightTRES", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "PrivateData", Kind: KindString, Default: "none", Show: ShowPlain},
	{Name: "ProctrackType", Kind: KindString, Default: "proctrack/cgroup", Show: ShowPlain},
	{Name: "Prolog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PrologEpilogTimeout", Kind: KindUint16, Default: "65534", Show: ShowPlain},
	{Name: "PrologFlags", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PrologSlurmctld", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "PropagatePrioProcess", Kind: KindUint16, Default: "0", Show: ShowPlain},
	{Name: "PropagateResourceLimits", Kind: KindString, Default: "ALL", Show: ShowPlain},
	{Name: "PropagateResourceLimitsExcept", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "RebootProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ReconfigFlags", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "RequeueExit", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "RequeueExitHold", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ResumeFailProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ResumeProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ResumeRate", Kind: KindUint16, Default: "300", Show: ShowNodesMin},
	{Name: "ResumeTimeout", Kind: KindUint16, Default: "60", Show: ShowSec},
	{Name: "ResvEpilog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ResvOverRun", Kind: KindUint16, Default: "0", Show: ShowMin},
	{Name: "ResvProlog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ReturnToService", Kind: KindUint16, Default: "", Show: ShowPlain},
	{Name: "RoutePlugin", Kind: KindString, Default: "route/default", Show: ShowPlain},
	{Name: "SallocDefaultCommand", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "SbcastParameters", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "SchedulerAuth", Kind: KindString, Default: "", Show: ShowNone},
	{Name: "SchedulerParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SchedulerTimeSlice", Kind: KindUint16, Default: "30", Show: ShowSec},
	{Name: "SchedulerType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "ScronParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SelectType", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SelectTypeParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldAddr", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldDebug", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldHost", Kind: KindLines, Default: "", Show: ShowNone},
	{Name: "SlurmctldLogFile", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldPidFile", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldPlugstack", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldPort", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldPrimaryOffProg", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldPrimaryOnProg", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldSyslogDebug", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmctldTimeout", Kind: KindUint16, Default: "120", Show: ShowSec},
	{Name: "SlurmdDebug", Kind: KindString, Default: "info", Show: ShowPlain},
	{Name: "SlurmdLogFile", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmdParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmdPidFile", Kind: KindString, Default: "/var/run/slurmd.pid", Show: ShowPlain},
	{Name: "SlurmdPort", Kind: KindUint32, Default: "", Show: ShowPlain},
	{Name: "SlurmdSpoolDir", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmdSyslogDebug", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmdTimeout", Kind: KindUint16, Default: "300", Show: ShowSec},
	{Name: "SlurmdUser", Kind: KindString, Default: "root", Show: ShowUser},
	{Name: "SlurmSchedLogFile", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SlurmSchedLogLevel", Kind: KindUint16, Default: "0", Show: ShowPlain},
	{Name: "SlurmUser", Kind: KindString, Default: "root", Show: ShowUser},
	{Name: "SrunEpilog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SrunPortRange", Kind: KindString, Default: "0-0", Show: ShowPlain},
	{Name: "SrunProlog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "StateSaveLocation", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SuspendExcNodes", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SuspendExcParts", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SuspendProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SuspendRate", Kind: KindUint16, Default: "60", Show: ShowNodesMin},
	{Name: "SuspendTime", Kind: KindString, Default: "INFINITE", Show: ShowPlain},
	{Name: "SuspendTimeout", Kind: KindUint16, Default: "30", Show: ShowSec},
	{Name: "SwitchParameters", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "SwitchType", Kind: KindString, Default: "switch/none", Show: ShowPlain},
	{Name: "TaskEpilog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "TaskPlugin", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "TaskPluginParam", Kind: KindString, Default: "(null type)", Show: ShowPlain},
	{Name: "TaskProlog", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "TCPTimeout", Kind: KindUint16, Default: "2", Show: ShowSec},
	{Name: "TmpFS", Kind: KindString, Default: "/tmp", Show: ShowPlain},
	{Name: "TopologyParam", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "TopologyPlugin", Kind: KindString, Default: "topology/none", Show: ShowPlain},
	{Name: "TrackWCKey", Kind: KindBool, Default: "No", Show: ShowYesNo},
	{Name: "TreeWidth", Kind: KindUint16, Default: "50", Show: ShowPlain},
	{Name: "UnkillableStepProgram", Kind: KindString, Default: "", Show: ShowPlain},
	{Name: "UnkillableStepTimeout", Kind: KindUint16, Default: "60", Show: ShowSec},
	{Name: "UsePAM", Kind: KindBool, Default: "No", Show: ShowYesNo},
	{Name: "VSizeFactor", Kind: KindUint16, Default: "0", Show: ShowPercent},
	{Name: "WaitTime", Kind: KindUint16, Default: "0", Show: ShowSec},
	{Name: "X11Parameters", Kind: KindString, Default: "", Show: ShowPlain},
}

var keyIndex = func() map[string]*Key {
	m := make(map[string]*Key, len(SlurmKeys)+len(OrbitKeys))
	for i := range SlurmKeys {
		m[strings.ToLower(SlurmKeys[i].Name)] = &SlurmKeys[i]
	}
	for i := range OrbitKeys {
		m[strings.ToLower(OrbitKeys[i].Name)] = &OrbitKeys[i]
	}
	return m
}()

// LookupKey finds a top-level key by name, case-insensitively as Slurm does, among Slurm's
// keys and Orbit's.
func LookupKey(name string) (*Key, bool) {
	return lookupFold(keyIndex, name)
}
