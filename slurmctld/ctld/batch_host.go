package ctld

import (
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// sbatch --batch names the features the node running a job's batch script should have.
// Slurm checks at submit that each is one of the job's --constraint features and one some
// node has (_valid_batch_features; with "|" one such is enough), and picks, as the job
// starts, the first node of the allocation having them, else its first node
// (pick_batch_host, best effort: the selection does not look for one).

const errnoBatchConstraint = 2114 // ESLURM_BATCH_CONSTRAINT

func init() {
	errnoTexts[errnoBatchConstraint] = "Job --batch option is invalid or not a subset of --constraints"
}

// batchTokens splits a --batch expression into its features and the separator before each
// ('&' for the first).
func batchTokens(batch string) (names []string, seps []byte) {
	sep := byte('&')
	start := 0
	for i := 0; i <= len(batch); i++ {
		if i < len(batch) && batch[i] != '&' && batch[i] != '|' {
			continue
		}
		names, seps = append(names, batch[start:i]), append(seps, sep)
		if i < len(batch) {
			sep = batch[i]
		}
		start = i + 1
	}
	return names, seps
}

// checkBatchFeatures refuses a --batch as Slurm's _valid_batch_features does, before the
// constraint's own features are checked: without a --constraint (one that does not parse is
// "Invalid feature specification"), the features are taken in order and the first that is
// not one of the constraint's ends the check; each must be one some node has, except that
// with "|" one such before any failure is enough.
func (t *tables) checkBatchFeatures(batch, constraint string) error {
	if batch == "" {
		return nil
	}
	if strings.TrimSpace(constraint) == "" {
		return slurmErr(errnoBatchConstraint)
	}
	cons, err := selection.ParseConstraint(constraint)
	if err != nil {
		return slurmErr(errnoInvalidFeature)
	}
	named := constraintNames(cons) // job_submit_checks.go
	names, _ := batchTokens(batch)
	or, orFound := strings.Contains(batch, "|"), false
	failed := false
	for _, f := range names {
		if !slices.Contains(named, f) {
			failed = true
			break
		}
		has := false
		for _, n := range t.nodes {
			if slices.Contains(n.features(), f) {
				has = true
				break
			}
		}
		if has {
			orFound = true
		} else if !or {
			failed = true
			break
		}
	}
	if or && orFound || !or && !failed {
		return nil
	}
	return slurmErr(errnoBatchConstraint)
}

// pickBatchNode is the node of started job j that runs its batch script when it gave
// --batch: the first of its nodes (in configuration order) whose active features satisfy the
// expression read left to right, else "" (its first node). It reads only the tables, so a
// replay picks the same node.
func (t *tables) pickBatchNode(j *jobRecord) string {
	batch := j.descStr(descBatchFeatures)
	if batch == "" || len(j.Nodes) == 0 {
		return ""
	}
	names, seps := batchTokens(batch)
	ok := func(node string) bool {
		e := t.nodes[node]
		if e == nil {
			return false
		}
		have := e.activeFeatures()
		v := true
		for i, f := range names {
			if seps[i] == '|' {
				v = v || slices.Contains(have, f)
			} else {
				v = v && slices.Contains(have, f)
			}
		}
		return v
	}
	best := ""
	for _, n := range j.Nodes {
		if ok(n) && (best == "" || t.nodes[n].order < t.nodes[best].order) {
			best = n
		}
	}
	return best
}
