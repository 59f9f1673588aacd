package wire

// Job priority factors: what sprio asks of slurmctld (Slurm's REQUEST_PRIORITY_FACTORS).

// PriorityFactorsRequest asks for the priority factors of pending jobs, optionally only
// those with the given ids, of the given users or in the given partitions (comma-separated
// names, as sprio -p passes them). Empty filters select everything.
type PriorityFactorsRequest struct {
	JobIDs     []uint32 `codec:"job_ids"`
	UserIDs    []uint32 `codec:"user_ids"`
	Partitions string   `codec:"partitions"`
}

// PriorityFactorsReply lists one entry per pending, eligible, not held job (and partition),
// as priority/multifactor computed them at its last calculation. PriorityType says which
// priority plugin the controller runs; with priority/basic the list is empty.
type PriorityFactorsReply struct {
	PriorityType string            `codec:"priority_type"`
	Factors      []PriorityFactors `codec:"factors"`
}

// PriorityFactors is one job's factors, already multiplied by their weights (Slurm's
// priority_factors_object_t): sprio divides by the weight for -n. Site and Nice carry
// Slurm's NICE_OFFSET (0x80000000) as Slurm sends them. DirectPrio is an administrator's
// priority (scontrol update Priority=), which replaces the factors when non-zero.
type PriorityFactors struct {
	JobID      uint32  `codec:"job_id"`
	UserID     uint32  `codec:"user_id"`
	Partition  string  `codec:"partition"`
	Age        float64 `codec:"age"`
	Assoc      float64 `codec:"assoc"`
	FairShare  float64 `codec:"fair_share"`
	JobSize    float64 `codec:"job_size"`
	Part       float64 `codec:"part"`
	QOS        float64 `codec:"qos"`
	Site       uint32  `codec:"site"`
	Nice       uint32  `codec:"nice"`
	DirectPrio float64 `codec:"direct_prio"`
}

func init() {
	Register(MsgPriorityFactors, "REQUEST_PRIORITY_FACTORS", func() any { return new(PriorityFactorsRequest) })
	Register(MsgPriorityFactorsReply, "RESPONSE_PRIORITY_FACTORS", func() any { return new(PriorityFactorsReply) })
}
