package states

// DescNodesReserved is the text Slurm's main scheduler gives a job (reason Resources) whose
// partition has fewer usable nodes left than it needs, once a higher-priority job that
// could not start has had its partition's nodes set aside.
const DescNodesReserved = "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"

// SchedulerDescs are the pending-reason texts a scheduler may give a job in place of its
// reason's name (Slurm's state_desc), with the reason each goes with.
var SchedulerDescs = map[string]Reason{
	DescNodesReserved: WaitResources,
}

// The texts of a job kept off nodes by advance reservations it is not in, when it could not
// run even with every other job gone (Slurm's _get_req_features, ReqNodeNotAvail).
const (
	DescResvOtherJob = "ReqNodeNotAvail, May be reserved for other job"
	DescResvMaint    = "ReqNodeNotAvail, Reserved for maintenance"
)

func init() {
	SchedulerDescs[DescResvOtherJob] = WaitNodeNotAvail
	SchedulerDescs[DescResvMaint] = WaitNodeNotAvail
}
