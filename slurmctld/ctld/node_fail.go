package ctld

import (
	"fmt"
	"slices"
)

// nodeLoss gathers the running jobs that lost nodes in one pass (nodes found unresponsive,
// or set DOWN by an operator) so that each job is decided once, knowing every node it lost.
type nodeLoss struct {
	order []uint32            // jobs in the order first met
	lost  map[uint32][]string // job → the nodes it lost
	jobs  map[uint32]*jobRecord
}

// add records that running job j lost node.
func (l *nodeLoss) add(j *jobRecord, node string) {
	if l.lost == nil {
		l.lost, l.jobs = map[uint32][]string{}, map[uint32]*jobRecord{}
	}
	if _, ok := l.lost[j.JobID]; !ok {
		l.order = append(l.order, j.JobID)
		l.jobs[j.JobID] = j
	}
	if !slices.Contains(l.lost[j.JobID], node) {
		l.lost[j.JobID] = append(l.lost[j.JobID], node)
	}
}

// changes are what the losses do, as Slurm's kill_running_job_by_node_name: a job that
// asked --no-kill and kept its batch host and at least one other node goes on without the
// lost nodes (exciseNodes); any other ends NODE_FAIL or is requeued (nodeFailChange). gone
// lists, per job, the nodes where it must be terminated: the lost ones of a job that goes
// on, all of them for a job that ends.
func (c *Controller) lossChanges(l *nodeLoss, now int64) (chs multi, gone []terminated) {
	for _, id := range l.order {
		j, lost := l.jobs[id], l.lost[id]
		if j.descFlag(descNoKill) && !slices.Contains(lost, j.batchHost()) && len(lost) < len(j.Nodes) {
			chs = append(chs, exciseNodes{jobID: id, nodes: lost})
			gone = append(gone, terminated{jobID: id, nodes: lost})
			c.log.Info("job keeps running without its failed nodes (--no-kill)", "job", id, "nodes", lost)
			continue
		}
		chs = append(chs, c.nodeFailChange(j, now)) // job_requeue.go
		gone = append(gone, terminated{jobID: id, nodes: append([]string(nil), j.Nodes...)})
	}
	return chs, gone
}

// exciseNodes takes failed nodes out of a running job's allocation (Slurm's
// _excise_node_from_job): the job keeps its other nodes, CPUs and devices.
type exciseNodes struct {
	jobID uint32
	nodes []string
}

func (ch exciseNodes) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil || !j.holdsNodes() {
		return nil, fmt.Errorf("job %d holds no nodes", ch.jobID)
	}
	n := j.clone()
	n.Nodes, n.CPUsPerNode, n.GresAlloc = nil, nil, nil
	for i, name := range j.Nodes {
		if slices.Contains(ch.nodes, name) {
			continue
		}
		n.Nodes = append(n.Nodes, name)
		n.CPUsPerNode = append(n.CPUsPerNode, j.CPUsPerNode[i])
		if i < len(j.GresAlloc) {
			n.GresAlloc = append(n.GresAlloc, j.GresAlloc[i])
		}
	}
	if len(n.Nodes) == 0 || len(n.Nodes) == len(j.Nodes) {
		return nil, fmt.Errorf("job %d: excising %v leaves %d of its %d nodes", ch.jobID, ch.nodes, len(n.Nodes), len(j.Nodes))
	}
	if len(j.GresAlloc) == 0 {
		n.GresAlloc = nil
	}
	return &effects{jobs: []*jobRecord{n}}, nil
}
