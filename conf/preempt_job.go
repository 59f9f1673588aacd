package conf

// PreemptAction is what preemption does to a job (Slurm's PREEMPT_MODE_* of one job, GANG
// and WITHIN filtered out).
type PreemptAction uint8

const (
	PreemptOff PreemptAction = iota
	PreemptSuspend
	PreemptRequeue
	PreemptCancel
)

func (a PreemptAction) String() string {
	return [...]string{"OFF", "SUSPEND", "REQUEUE", "CANCEL"}[a]
}

func actionOf(bits uint16) PreemptAction {
	switch bits &^ (preemptGang | preemptWithin) {
	case preemptSuspend:
		return PreemptSuspend
	case preemptRequeue:
		return PreemptRequeue
	case preemptCancel:
		return PreemptCancel
	}
	return PreemptOff
}

// clusterPreemptBits is PreemptMode's bits (OFF when unset or invalid: the loader refused
// an invalid value).
func (c *Config) clusterPreemptBits() uint16 {
	m, _ := preemptModeNum(c.PreemptMode)
	return m
}

// PreemptByPartition says whether jobs preempt others by partition PriorityTier
// (PreemptType=preempt/partition_prio with a PreemptMode other than OFF).
func (c *Config) PreemptByPartition() bool {
	return c.PreemptType == "preempt/partition_prio" && actionOf(c.clusterPreemptBits()) != PreemptOff
}

// PreemptOn says whether PreemptMode is other than OFF (Slurm's preemption enabled).
func (c *Config) PreemptOn() bool { return actionOf(c.clusterPreemptBits()) != PreemptOff }

// PreemptGang says whether PreemptMode has GANG: Slurm then preempts from its gang
// scheduler, which does not record a PreemptTime.
func (c *Config) PreemptGang() bool { return c.clusterPreemptBits()&preemptGang != 0 }

// PartitionPreemptAction is the preemption mode of the jobs of partition p, as Slurm's
// partition_prio plugin reads it: the partition's PreemptMode when set, else the cluster's.
func (c *Config) PartitionPreemptAction(p *Partition) PreemptAction {
	if p != nil && p.PreemptMode != "" {
		m, _ := preemptModeNum(p.PreemptMode)
		return actionOf(m)
	}
	return actionOf(c.clusterPreemptBits())
}

// PartitionPreemptOff says whether partition p's own PreemptMode is OFF, which makes its jobs
// never preemptable (Slurm checks the partition's mode alone here).
func PartitionPreemptOff(p *Partition) bool {
	if p == nil || p.PreemptMode == "" {
		return false
	}
	m, ok := preemptModeNum(p.PreemptMode)
	return ok && actionOf(m) == PreemptOff
}

// PreemptModeString is a PreemptMode value as Slurm prints it (preempt_mode_string): GANG or
// WITHIN first, then the mode; an invalid value is printed as given.
func PreemptModeString(v string) string {
	bits, ok := preemptModeNum(v)
	if !ok {
		return v
	}
	switch bits {
	case preemptOff:
		return "OFF"
	case preemptGang:
		return "GANG"
	case preemptWithin:
		return "WITHIN"
	}
	prefix := ""
	switch {
	case bits&preemptGang != 0:
		prefix = "GANG,"
	case bits&preemptWithin != 0:
		prefix = "WITHIN,"
	}
	switch bits &^ (preemptGang | preemptWithin) {
	case preemptCancel:
		return prefix + "CANCEL"
	case preemptRequeue:
		return prefix + "REQUEUE"
	case preemptSuspend:
		return prefix + "SUSPEND"
	}
	return prefix + "UNKNOWN"
}
