package conf

import (
	"strconv"

	"github.com/orbit-hpc/orbit/compat/rlimits"
)

// Value is one raw top-level value as written, with where it was written. Nothing the file
// says is lost: keys without a typed field are still in Config.Raw.
type Value struct {
	Key   string // canonical spelling from the registry
	Value string
	File  string
	Line  int
}

// ControllerHost is one SlurmctldHost entry: SlurmctldHost=name(addr); Addr is Name when no
// address is given. The first is the primary, the rest are backups in order.
type ControllerHost struct {
	Name string
	Addr string
}

// Config is slurm.conf as the daemons use it: typed fields for the keys Orbit acts on, Slurm's
// defaults filled in, node and partition lines expanded, and every raw value kept in Raw.
type Config struct {
	Path  string   // the slurm.conf that was read
	Files []string // every file read, slurm.conf first, then Includes in reading order

	ClusterName    string
	SlurmctldHosts []ControllerHost
	SlurmctldAddr  string
	// SlurmctldPort is the first controller port; SlurmctldPortCount > 1 when a range
	// ("6817-6820") was given.
	SlurmctldPort      uint16
	SlurmctldPortCount uint16
	SlurmdPort         uint32
	SlurmUser          string
	SlurmdUser         string
	AuthType           string
	AuthInfo           string
	CredType           string
	PluginDir          string
	StateSaveLocation  string
	SlurmdSpoolDir     string // may hold %n/%h: see ExpandNodePattern
	SlurmctldPidFile   string
	SlurmdPidFile      string // may hold %n/%h
	SlurmctldLogFile   string
	SlurmdLogFile      string // may hold %n/%h
	SlurmctldDebug     string
	SlurmdDebug        string
	DebugFlags         string

	// Timers, in seconds unless the name says otherwise.
	MessageTimeout        uint16
	SlurmctldTimeout      uint16
	SlurmdTimeout         uint16
	KillWait              uint16
	MinJobAge             uint32
	OverTimeLimit         uint16 // minutes
	InactiveLimit         uint16
	WaitTime              uint16
	BatchStartTimeout     uint16
	CompleteWait          uint16
	UnkillableStepTimeout uint16
	TCPTimeout            uint16
	HealthCheckInterval   uint16
	HealthCheckProgram    string
	HealthCheckNodeState  uint16 // HealthCheck* flags

	SchedulerType        string
	SchedulerParameters  string
	SelectType           string
	SelectTypeParameters string
	PriorityType         string
	// Priority holds the priority/multifactor settings (see PriorityConfig).
	Priority    PriorityConfig
	PreemptType string
	PreemptMode string
	// PreemptExemptSecs is PreemptExemptTime in seconds (0 for none or an unreadable value).
	PreemptExemptSecs int64
	ProctrackType     string
	TaskPlugin        string
	// PropagateRlimits is the rlimits PropagateResourceLimits (default ALL) or
	// PropagateResourceLimitsExcept propagate from the submitting shell to the tasks.
	PropagateRlimits  rlimits.Set
	MpiDefault        string
	SwitchType        string
	TopologyPlugin    string
	JobAcctGatherType string
	// AccountingStorageType selects job accounting (what sacct reads). Orbit has no slurmdbd:
	// accounting is embedded, kept by slurmctld in SQLite beside its state in
	// StateSaveLocation. "accounting_storage/orbit" names it (the quick start's value), and
	// "accounting_storage/slurmdbd" selects the same store, so a migrating site's slurm.conf
	// gets a working sacct unchanged (AccountingStorageHost/Port are then unused).
	// "accounting_storage/none" (Slurm's default) disables sacct as in Slurm.
	AccountingStorageType string
	JobCompType           string
	GresTypes             string
	Licenses              string

	TreeWidth       uint16
	MaxJobCount     uint32
	FirstJobId      uint32
	MaxJobId        uint32
	MaxArraySize    uint32
	MaxStepCount    uint32
	MaxTasksPerNode uint16
	ReturnToService uint16
	JobRequeue      uint16
	KillOnBadExit   uint16
	DisableRootJobs bool
	UsePAM          bool
	// EnforcePartLimits is NO, ANY or ALL (Slurm's spellings YES, TRUE, UP and 1 mean ANY).
	EnforcePartLimits string

	Prolog          string
	Epilog          string
	PrologSlurmctld string
	EpilogSlurmctld string
	PrologFlags     string
	TaskProlog      string
	TaskEpilog      string
	SrunProlog      string
	SrunEpilog      string
	MailProg        string

	// Memory limits in megabytes; 0 means not set (Slurm prints UNLIMITED).
	DefMemPerCPU  uint64
	DefMemPerNode uint64
	MaxMemPerCPU  uint64
	MaxMemPerNode uint64

	Nodes      []*Node
	Partitions []*Partition
	NodeSets   []*NodeSet
	DownNodes  []*DownNodes
	Frontends  []*Frontend

	Orbit OrbitConfig

	// Companions read from slurm.conf's directory when present (nil when absent).
	Gres     *GresConfig
	Topology *TopologyConfig
	Cgroup   *CgroupConfig

	// Raw holds every top-level value by canonical key name (the last one when repeated).
	Raw map[string]Value
	// Warnings are problems Slurm logs but survives (values it resets, ignored legacy keys).
	Warnings Errors

	nodeIndex map[string]nodeRef
}

// nodeRef is an indexed node with its position in Config.Nodes as read, which lets the loader
// mark nodes in a slice rather than a set of names.
type nodeRef struct {
	node *Node
	ord  int
}

// Node is one node after its NodeName line (and NodeName=DEFAULT lines before it) is expanded.
type Node struct {
	Name           string
	Hostname       string // NodeHostname, Name when not given
	Addr           string // NodeAddr, Hostname when not given
	BcastAddr      string
	Port           uint16 // 0: SlurmdPort
	CPUs           uint16
	Boards         uint16
	Sockets        uint16 // total sockets on the node
	CoresPerSocket uint16
	ThreadsPerCore uint16
	RealMemory     uint64 // MB
	TmpDisk        uint32 // MB
	MemSpecLimit   uint64
	CoreSpecCount  uint16
	CPUSpecList    string
	CpuBind        string
	Gres           string
	Features       []string
	Weight         uint32
	State          string // as written; "" = UNKNOWN
	Reason         string
	TRESWeights    string
	File           string
	Line           int
}

// Partition is one PartitionName line with DEFAULT values applied.
type Partition struct {
	Name               string
	NodesExpr          string   // as written, spaces turned into commas as Slurm does
	Nodes              []string // expanded node names, ALL and node sets resolved
	AllNodes           bool
	Default            bool
	MaxTime            uint32 // minutes; Infinite32 = UNLIMITED
	DefaultTime        uint32 // minutes; NoValue32 = not set
	State              string // UP, DOWN, DRAIN, INACTIVE
	MaxNodes           uint32 // Infinite32 = UNLIMITED
	MinNodes           uint32
	MaxCPUsPerNode     uint32
	OverSubscribe      string // NO, EXCLUSIVE, YES:n, FORCE:n
	PriorityJobFactor  uint16
	PriorityTier       uint16
	AllowGroups        string // "" = ALL
	AllowAccounts      string
	AllowQos           string
	DenyAccounts       string
	DenyQos            string
	AllocNodes         string
	Alternate          string
	QOS                string
	Hidden             bool
	RootOnly           bool
	ReqResv            bool
	LLN                bool
	ExclusiveUser      bool
	DisableRootJobs    bool
	GraceTime          uint32
	PreemptMode        string
	OverTimeLimit      string
	DefMemPerCPU       uint64
	DefMemPerNode      uint64
	MaxMemPerCPU       uint64
	MaxMemPerNode      uint64
	TRESBillingWeights string
	File               string
	Line               int
}

// NoValue32 marks an unset 32-bit value, as Slurm's NO_VAL.
const NoValue32 = 0xfffffffe

// NodeSet is a named group of nodes usable in a partition's Nodes=.
type NodeSet struct {
	Name    string
	Feature string
	Nodes   []string
	File    string
	Line    int
}

// DownNodes is a DownNodes= line: nodes that start in State (default DOWN) with Reason.
type DownNodes struct {
	Nodes  []string
	State  string
	Reason string
	File   string
	Line   int
}

// Frontend is a FrontendName= line (front-end builds only; kept so nothing is lost).
type Frontend struct {
	Names  []string
	Addrs  []string
	Port   uint16
	State  string
	Reason string
	File   string
	Line   int
}

// Node returns the node named name, or nil.
func (c *Config) Node(name string) *Node { return c.nodeIndex[name].node }

// Get returns a top-level key's value: as written when set, else Slurm's default from the
// registry; ok is false for a key neither set nor defaulted.
func (c *Config) Get(key string) (string, bool) {
	k, known := LookupKey(key)
	if !known {
		return "", false
	}
	if v, ok := c.Raw[k.Name]; ok {
		return v.Value, true
	}
	return k.Default, k.Default != ""
}

// IsSet reports whether the files set key (case-insensitive).
func (c *Config) IsSet(key string) bool {
	k, known := LookupKey(key)
	if !known {
		return false
	}
	_, ok := c.Raw[k.Name]
	return ok
}

func (c *Config) str(key string) string { v, _ := c.Get(key); return v }

// uint reads an integer key (already validated while parsing); unset keys without a
// numeric default give def.
func (c *Config) uint(key string, def uint64) uint64 {
	k, _ := LookupKey(key)
	v, ok := c.Raw[k.Name]
	if !ok {
		if n, err := strconv.ParseUint(k.Default, 10, 64); err == nil {
			return n
		}
		return def
	}
	n, err := parseUint(k.Kind, k.Name, v.Value)
	if err != nil {
		return def
	}
	return n
}

func (c *Config) boolean(key string) bool {
	v, ok := c.Get(key)
	if !ok {
		return false
	}
	b, _ := parseBool(key, v)
	return b
}

// AccountingStorageType values Orbit accepts (see Config.AccountingStorageType).
const (
	AccountingNone     = "accounting_storage/none"
	AccountingSlurmdbd = "accounting_storage/slurmdbd"
	AccountingOrbit    = "accounting_storage/orbit"
)

// AccountingEnabled says whether sacct has data to read: any AccountingStorageType but none.
func (c *Config) AccountingEnabled() bool {
	return c.AccountingStorageType != AccountingNone
}
