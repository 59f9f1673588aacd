package hostlist

import "fmt"

// MaxExpand is the most names Expand returns. Slurm would print more (`scontrol show
// hostnames` streams them; see Hostlist.Each), but a slice of billions of strings is never
// what a caller wants.
const MaxExpand = 1 << 24

// Expand returns every host name in expr in Slurm's order, duplicates kept (scontrol show hostnames).
func Expand(expr string) ([]string, error) {
	hl, err := Parse(expr)
	if err != nil {
		return nil, err
	}
	if hl.Count() > MaxExpand {
		return nil, fmt.Errorf("hostlist %q holds %d hosts, more than the %d Orbit expands at once", expr, hl.Count(), MaxExpand)
	}
	return hl.Hosts(), nil
}

// Compress returns the ranged form keeping input order, as `scontrol show hostlist` prints it.
// Each name is taken as one host, brackets and separators included.
func Compress(names []string) string {
	return FromNames(names).Ranged()
}

// CompressSorted sorts (and de-duplicates, if Slurm does) then compresses: `scontrol show hostlistsorted`.
// Slurm does not de-duplicate here: `a1,a1,a2` gives `a[1,1-2]`.
func CompressSorted(names []string) string {
	hl := FromNames(names)
	hl.Sort()
	return hl.Ranged()
}

// FromNames builds a hostlist holding each name as one host, in order.
func FromNames(names []string) *Hostlist {
	hl := &Hostlist{}
	for _, n := range names {
		hl.PushHost(n)
	}
	return hl
}

// Uniq returns the sorted, duplicate-free ranged form of names, as hostlist_uniq followed by
// hostlist_ranged_string gives it (what Slurm prints for node lists it builds itself).
func Uniq(names []string) string {
	hl := FromNames(names)
	hl.Uniq()
	return hl.Ranged()
}

// Count returns how many hosts expr names, or an error if Slurm refuses it.
func Count(expr string) (int, error) {
	hl, err := Parse(expr)
	if err != nil {
		return 0, err
	}
	return hl.Count(), nil
}
