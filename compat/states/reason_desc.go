package states

import "strings"

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

// DescUnavailableNodes begins the text of a job whose --nodelist names nodes no job may be
// given now (down, drained, not responding, or set aside in this pass for a higher-priority
// job): "ReqNodeNotAvail, UnavailableNodes:n[1-2]" (Slurm's select_nodes on
// ESLURM_NODE_NOT_AVAIL). UnavailableNodesDesc makes it.
const DescUnavailableNodes = "ReqNodeNotAvail, UnavailableNodes:"

// UnavailableNodesDesc is the pending-reason text of a job whose required nodes nodes (a
// hostlist) are unavailable.
func UnavailableNodesDesc(nodes string) string { return DescUnavailableNodes + nodes }

// SchedulerDescReason is the reason a scheduler's pending-reason text desc goes with, and
// whether desc is one a scheduler may give: one of SchedulerDescs, or an
// UnavailableNodesDesc naming nodes.
func SchedulerDescReason(desc string) (Reason, bool) {
	if r, ok := SchedulerDescs[desc]; ok {
		return r, true
	}
	if nodes, ok := strings.CutPrefix(desc, DescUnavailableNodes); ok && nodes != "" && !strings.ContainsAny(nodes, " \t\n()") {
		return WaitNodeNotAvail, true
	}
	return 0, false
}
