package conf

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/userdb"
)

// ShowConfigRuntime carries the values of `scontrol show config` that only a running
// controller knows; the caller (scontrol, from the controller's reply) fills them in.
type ShowConfigRuntime struct {
	DataAsOf       time.Time // "Configuration data as of ..." header
	BootTime       time.Time // BOOT_TIME
	HashMatch      bool      // HASH_VAL: "Match" when the caller's slurm.conf hash equals the controller's
	NextJobID      uint32    // NEXT_JOB_ID
	ConfPath       string    // SLURM_CONF as the controller read it
	Version        string    // SLURM_VERSION, e.g. "22.05.8"
	MultipleSlurmd bool      // MULTIPLE_SLURMD: how the reference was built ("Yes" for Debian)
	// ControllerStatus are the lines after the blank line, e.g. "Slurmctld(primary) at vm is UP".
	ControllerStatus []string
	// LookupUID maps a user name to its uid for SlurmUser/SlurmdUser ("root(0)"); nil uses the
	// system's user database.
	LookupUID func(name string) (uint32, bool)
	// SlurmctldDebug and DebugFlags, when set, are what scontrol setdebug and setdebugflags
	// made of slurm.conf's (until the next reconfigure).
	SlurmctldDebug string
	DebugFlags     *uint64
	// FairShareDampeningFactor, when not 0, is what scontrol fsdampeningfactor set.
	FairShareDampeningFactor uint16
}

// showConfigOrder is the order of Slurm 22.05's `scontrol show config` (src/api/config_info.c),
// upper-case names being run-time values. Split on first use: only `scontrol show config`
// needs it, and every command loads this package.
var showConfigOrder = sync.OnceValue(func() []string { return strings.Fields(showConfigNames) })

const showConfigNames = `
AccountingStorageBackupHost AccountingStorageEnforce AccountingStorageHost
AccountingStorageExternalHost AccountingStorageParameters AccountingStoragePort
AccountingStorageTRES AccountingStorageType AccountingStorageUser AccountingStoreFlags
AcctGatherEnergyType AcctGatherFilesystemType AcctGatherInterconnectType AcctGatherNodeFreq
AcctGatherProfileType AllowSpecResourcesUsage AuthAltTypes AuthAltParameters AuthInfo AuthType
BatchStartTimeout BcastExclude BcastParameters BOOT_TIME BurstBufferType CliFilterPlugins
ClusterName CommunicationParameters CompleteWait CoreSpecPlugin CpuFreqDef CpuFreqGovernors
CredType DebugFlags DefMemPerNode DependencyParameters DisableRootJobs EioTimeout EnforcePartLimits
Epilog EpilogMsgTime EpilogSlurmctld ExtSensorsType ExtSensorsFreq FairShareDampeningFactor FederationParameters
FirstJobId GetEnvTimeout GresTypes GpuFreqDef GroupUpdateForce GroupUpdateTime HASH_VAL
HealthCheckInterval HealthCheckNodeState HealthCheckProgram InactiveLimit InteractiveStepOptions
JobAcctGatherFrequency JobAcctGatherType JobAcctGatherParams JobCompHost JobCompLoc JobCompPort
JobCompType JobCompUser JobContainerType JobCredentialPrivateKey JobCredentialPublicCertificate
JobDefaults JobFileAppend JobRequeue JobSubmitPlugins KillOnBadExit KillWait LaunchParameters
LaunchType Licenses LogTimeFormat MailDomain MailProg MaxArraySize MaxDBDMsgs MaxJobCount MaxJobId
MaxMemPerNode MaxNodeCount MaxStepCount MaxTasksPerNode MCSPlugin MCSParameters MessageTimeout
MinJobAge MpiDefault MpiParams MULTIPLE_SLURMD NEXT_JOB_ID NodeFeaturesPlugins OverTimeLimit
PluginDir PlugStackConfig PowerParameters PowerPlugin PreemptMode PreemptType PreemptExemptTime
PrEpParameters PrEpPlugins PriorityParameters PrioritySiteFactorParameters PrioritySiteFactorPlugin
PriorityType PrivateData ProctrackType Prolog PrologEpilogTimeout PrologSlurmctld PrologFlags
PropagatePrioProcess PropagateResourceLimits PropagateResourceLimitsExcept RebootProgram
ReconfigFlags RequeueExit RequeueExitHold ResumeFailProgram ResumeProgram ResumeRate
ResumeTimeout ResvEpilog ResvOverRun ResvProlog ReturnToService RoutePlugin SchedulerParameters
SchedulerTimeSlice SchedulerType ScronParameters SelectType SelectTypeParameters SlurmUser
SlurmctldAddr SlurmctldDebug SlurmctldHost SlurmctldLogFile SlurmctldPort SlurmctldSyslogDebug
SlurmctldPrimaryOffProg SlurmctldPrimaryOnProg SlurmctldTimeout SlurmctldParameters SlurmdDebug
SlurmdLogFile SlurmdParameters SlurmdPidFile SlurmdPort SlurmdSpoolDir SlurmdSyslogDebug
SlurmdTimeout SlurmdUser SlurmSchedLogFile SlurmSchedLogLevel SlurmctldPidFile SlurmctldPlugstack
SLURM_CONF SLURM_VERSION SrunEpilog SrunPortRange SrunProlog StateSaveLocation SuspendExcNodes
SuspendExcParts SuspendProgram SuspendRate SuspendTime SuspendTimeout SwitchParameters SwitchType
TaskEpilog TaskPlugin TaskPluginParam TaskProlog TCPTimeout TmpFS TopologyParam TopologyPlugin
TrackWCKey TreeWidth UsePam UnkillableStepProgram UnkillableStepTimeout VSizeFactor WaitTime
X11Parameters
`

// ShowConfig renders the configuration as `scontrol show config` prints it: a header, one
// "Key = value" line per key (names padded to 23 columns), a blank line and the controller
// status lines.
func (c *Config) ShowConfig(rt ShowConfigRuntime) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Configuration data as of %s\n", rt.DataAsOf.Format("2006-01-02T15:04:05"))
	line := func(k, v string) { fmt.Fprintf(&b, "%-23s = %s\n", k, v) }
	for _, name := range showConfigOrder() {
		switch name {
		case "BOOT_TIME":
			line(name, rt.BootTime.Format("2006-01-02T15:04:05"))
		case "HASH_VAL":
			line(name, map[bool]string{true: "Match", false: "Different Ours=<unknown> Slurmctld=<unknown>"}[rt.HashMatch])
		case "MULTIPLE_SLURMD":
			if rt.MultipleSlurmd {
				line(name, "Yes")
			}
		case "NEXT_JOB_ID":
			line(name, strconv.FormatUint(uint64(rt.NextJobID), 10))
		case "SLURM_CONF":
			line(name, rt.ConfPath)
		case "SLURM_VERSION":
			line(name, rt.Version)
		case "ClusterName":
			line(name, c.ClusterName)
		case "SlurmctldDebug":
			line(name, cmp.Or(rt.SlurmctldDebug, c.SlurmctldDebug))
		case "DebugFlags":
			// Slurm prints the flags it parsed, in its own names and order.
			v := c.DebugFlags
			if f, _, err := ParseDebugFlags(v); err == nil {
				v = DebugFlagsString(f)
			}
			if rt.DebugFlags != nil {
				v = DebugFlagsString(*rt.DebugFlags)
			}
			line(name, cmp.Or(v, "(null)"))
		case "PreemptMode":
			line(name, PreemptModeString(c.PreemptMode))
		case "SlurmctldHost":
			for i, h := range c.SlurmctldHosts {
				v := h.Name
				if h.Addr != h.Name {
					v += "(" + h.Addr + ")"
				}
				line(fmt.Sprintf("SlurmctldHost[%d]", i), v)
			}
		case "SlurmctldPort":
			v := strconv.Itoa(int(c.SlurmctldPort))
			if c.SlurmctldPortCount > 1 {
				v += "-" + strconv.Itoa(int(c.SlurmctldPort)+int(c.SlurmctldPortCount)-1)
			}
			line(name, v)
		case "DefMemPerNode":
			// One line for the default memory: per CPU when set, else per node.
			if c.DefMemPerCPU > 0 {
				line("DefMemPerCPU", strconv.FormatUint(c.DefMemPerCPU, 10))
			} else {
				line(name, memOrUnlimited(c.DefMemPerNode))
			}
		case "MaxMemPerNode":
			if c.MaxMemPerCPU > 0 {
				line("MaxMemPerCPU", strconv.FormatUint(c.MaxMemPerCPU, 10))
			} else {
				line(name, memOrUnlimited(c.MaxMemPerNode))
			}
		case "MaxNodeCount":
			v := c.str("MaxNodeCount")
			if v == "" {
				v = strconv.Itoa(len(c.Nodes))
			}
			line(name, v)
		case "JobDefaults":
			line(name, c.jobDefaults())
		case "FairShareDampeningFactor":
			// Printed with the multifactor block only (config_info.c compares the plugin
			// name with "priority/basic" exactly).
			if c.PriorityType != "priority/basic" {
				line(name, strconv.Itoa(int(cmp.Or(rt.FairShareDampeningFactor, c.Priority.FairShareDampeningFactor))))
			}
		case "PriorityType":
			if c.PriorityType == "priority/basic" {
				line(name, c.PriorityType)
				break
			}
			for _, kv := range c.priorityLines() {
				line(kv[0], kv[1])
			}
		case "UsePam":
			line(name, yesNo(c.UsePAM))
		case "MinJobAge":
			line(name, fmt.Sprintf("%d sec", c.MinJobAge))
		case "TreeWidth":
			line(name, strconv.Itoa(int(c.TreeWidth)))
		case "EnforcePartLimits":
			line(name, c.EnforcePartLimits)
		case "HealthCheckNodeState":
			line(name, healthCheckNodeStateString(c.HealthCheckNodeState))
		case "SelectTypeParameters":
			// The controller's bits, in Slurm's words; none at all (select/linear without
			// any) is no line.
			if v := c.CtldSelectTypeParam(); v != 0 {
				line(name, selectTypeParamString(v))
			}
		default:
			k, _ := LookupKey(name)
			line(name, c.showValue(k, rt))
		}
	}
	if strings.Contains(c.JobAcctGatherType, "cgroup") || strings.Contains(c.ProctrackType, "cgroup") ||
		strings.Contains(c.TaskPlugin, "cgroup") {
		// The controller sends cgroup.conf's values only where a cgroup plugin reads them.
		b.WriteString("\nCgroup Support Configuration:\n")
		for _, kv := range c.Cgroup.showLines() {
			line(kv[0], kv[1])
		}
	}
	b.WriteString("\n")
	for _, s := range rt.ControllerStatus {
		b.WriteString(s + "\n")
	}
	return b.String()
}

func (c *Config) showValue(k *Key, rt ShowConfigRuntime) string {
	v, set := c.Get(k.Name)
	switch k.Show {
	case ShowSec, ShowMin, ShowUsec, ShowPercent, ShowNodesMin:
		if !set {
			v = "0"
		}
		if n, err := parseUint(k.Kind, k.Name, v); err == nil {
			v = strconv.FormatUint(n, 10)
		}
		return v + map[ShowFormat]string{ShowSec: " sec", ShowMin: " min", ShowUsec: " usec",
			ShowPercent: " percent", ShowNodesMin: " nodes/min"}[k.Show]
	case ShowYesNo:
		return yesNo(c.boolean(k.Name))
	case ShowUser:
		uid, ok := lookupUID(rt, v)
		if !ok {
			return v + "(4294967294)"
		}
		return fmt.Sprintf("%s(%d)", v, uid)
	case ShowMem:
		n, _ := parseUint(KindUint64, k.Name, v)
		return memOrUnlimited(n)
	case ShowEmpty:
		return v
	}
	if !set || v == "" {
		return "(null)"
	}
	return v
}

func lookupUID(rt ShowConfigRuntime, name string) (uint32, bool) {
	if rt.LookupUID != nil {
		return rt.LookupUID(name)
	}
	u, err := userdb.Lookup(name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(u.Uid, 10, 32)
	return uint32(n), err == nil
}

// jobDefaults renders the cluster-wide DefCPUPerGPU/DefMemPerGPU as Slurm's
// job_defaults_str does: "DefCpuPerGPU=N,DefMemPerGPU=M" (that spelling, CPU before memory,
// only those set), numbers as parsed (so "1k" prints 1024), "(null)" when neither is set.
func (c *Config) jobDefaults() string {
	var parts []string
	for _, d := range []struct{ key, name string }{{"DefCPUPerGPU", "DefCpuPerGPU"}, {"DefMemPerGPU", "DefMemPerGPU"}} {
		if v, ok := c.Raw[d.key]; ok {
			n, _ := parseUint(KindUint64, d.key, v.Value)
			parts = append(parts, d.name+"="+strconv.FormatUint(n, 10))
		}
	}
	if len(parts) == 0 {
		return "(null)"
	}
	return strings.Join(parts, ",")
}

func memOrUnlimited(n uint64) string {
	if n == 0 || n == Infinite64 {
		return "UNLIMITED"
	}
	return strconv.FormatUint(n, 10)
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}
