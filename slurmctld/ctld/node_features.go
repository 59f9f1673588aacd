package ctld

import (
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// A node's features, weight, comment and extra text as operators change them at run time
// (scontrol update NodeName=... AvailableFeatures= ActiveFeatures= Weight= Comment= Extra=,
// Slurm's update_node). Features and weight last until scontrol reconfigure, which goes
// back to slurm.conf's, as Slurm's does; they survive a restart, as Slurm's do under
// slurmctld -R (Orbit always recovers its state). Comment and Extra are not in slurm.conf
// and stay.

// errnoActiveNotSubset is ESLURM_ACTIVE_FEATURE_NOT_SUBSET.
const errnoActiveNotSubset = 2031

func init() {
	errnoTexts[errnoActiveNotSubset] = "Active features not subset of available features"
}

// features is the node's available features.
func (n *nodeEntry) features() []string {
	if n.rec.FeaturesSet {
		return featureList(n.rec.Features)
	}
	return n.conf.Features
}

// activeFeatures is the node's active features, which jobs' --constraint match: the
// available ones unless an operator set them apart.
func (n *nodeEntry) activeFeatures() []string {
	if n.rec.ActiveSet {
		return featureList(n.rec.ActiveFeatures)
	}
	return n.features()
}

// weight is the node's scheduling weight.
func (n *nodeEntry) weight() uint32 {
	if n.rec.WeightSet {
		return n.rec.Weight
	}
	return n.conf.Weight
}

// featureList splits a comma-separated feature list, as Slurm keeps it (empty names
// dropped).
func featureList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// updateFeatures applies an update's feature, weight, comment and extra changes to rec, a
// copy of node n's record, as Slurm's update_node does: the active features (those given,
// or the node's) must be among the available ones (those given, or the node's), else
// neither list changes and the update answers ESLURM_ACTIVE_FEATURE_NOT_SUBSET (the rest
// still applies); available features given alone become the active ones too.
func updateFeatures(n *nodeEntry, rec *nodeRecord, r *wire.UpdateNodeRequest) (errno int32) {
	if r.Features != nil || r.ActiveFeatures != nil {
		avail, act := n.features(), n.activeFeatures()
		if r.Features != nil {
			avail = featureList(*r.Features)
		}
		if r.ActiveFeatures != nil {
			act = featureList(*r.ActiveFeatures)
		}
		if !isSubset(act, avail) {
			errno = errnoActiveNotSubset
		} else {
			if r.Features != nil {
				rec.Features, rec.FeaturesSet = strings.Join(avail, ","), true
				if r.ActiveFeatures == nil {
					act = avail
				}
			}
			rec.ActiveFeatures, rec.ActiveSet = strings.Join(act, ","), true
		}
	}
	if r.Weight != nil {
		rec.Weight, rec.WeightSet = *r.Weight, true
	}
	if r.Comment != nil {
		rec.Comment = *r.Comment
	}
	if r.Extra != nil {
		rec.Extra = *r.Extra
	}
	return errno
}

// isSubset says whether every feature of act is in avail.
func isSubset(act, avail []string) bool {
	for _, f := range act {
		if !slices.Contains(avail, f) {
			return false
		}
	}
	return true
}

// reconfNodeOverrides drops the features and weights operators set, as Slurm's reconfigure
// reads them from slurm.conf again, saving the records in b. Called with c.mu held.
func (t *tables) reconfNodeOverrides(b *store.Batch) {
	for _, name := range t.nodeOrder {
		n := t.nodes[name]
		if !n.rec.FeaturesSet && !n.rec.ActiveSet && !n.rec.WeightSet {
			continue
		}
		rec := n.rec
		rec.Features, rec.FeaturesSet, rec.ActiveFeatures, rec.ActiveSet = "", false, "", false
		rec.Weight, rec.WeightSet = 0, false
		if v, err := wire.Marshal(&rec); err == nil {
			b.Put(kindNode, name, v)
			n.rec = rec
		}
	}
}

// nodeFeaturesInfo fills what scontrol show node and sinfo print of n's features, comment
// and extra text.
func nodeFeaturesInfo(n *nodeEntry, info *wire.NodeInfo) {
	info.Features = strings.Join(n.features(), ",")
	if act := n.rec.ActiveFeatures; n.rec.ActiveSet && (act != info.Features || act == "") {
		info.ActiveFeatures = &act
	}
	info.Weight = n.weight()
	info.Comment, info.Extra = n.rec.Comment, n.rec.Extra
}
