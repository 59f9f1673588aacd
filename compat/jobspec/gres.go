package jobspec

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// ErrInvalidGres is Slurm's ESLURM_INVALID_GRES, as its text: what sbatch, srun and salloc
// print (exit 1) for a --gres they cannot parse or that names a GRES not in GresTypes.
var ErrInvalidGres = errors.New("Invalid generic resource (gres) specification")

// GresReq is one element of a --gres list: Count of the generic resource Name (of Type,
// "" for any type) on every node of the job.
type GresReq struct {
	Name  string `codec:"name"`
	Type  string `codec:"type"`
	Count uint64 `codec:"count"`
}

// ParseGres parses --gres=name[[:type]:count][,...] as Slurm 22.05's _get_next_gres does:
// no count means 1; "name:x" is a type when x is not a number; an element with count 0 is
// dropped; empty elements (",,") are skipped; "none" (srun: do not copy the job's GRES to
// the step) is no request; a name and type given twice keeps the last count. A "gres:"
// prefix on an element (TresPerNode's form) is accepted. The count takes Slurm's k/m/g/t/p
// suffixes (×1024). Errors wrap ErrInvalidGres.
func ParseGres(s string) ([]GresReq, error) {
	if strings.EqualFold(s, "none") {
		return nil, nil
	}
	var out []GresReq
	for _, el := range strings.Split(s, ",") {
		el = strings.TrimPrefix(el, "gres:")
		if el == "" {
			continue
		}
		parts := strings.SplitN(el, ":", 3)
		r := GresReq{Name: parts[0], Count: 1}
		switch len(parts) {
		case 3:
			if parts[1] == "" || parts[2] == "" {
				return nil, gresErr(el, "empty type or count")
			}
			n, ok := gresNumber(parts[2])
			if !ok {
				return nil, gresErr(el, "invalid count "+strconv.Quote(parts[2]))
			}
			r.Type, r.Count = parts[1], n
		case 2:
			if parts[1] == "" {
				return nil, gresErr(el, "empty count")
			}
			if n, ok := gresNumber(parts[1]); ok {
				r.Count = n
			} else {
				r.Type = parts[1]
			}
		}
		if r.Name == "" {
			return nil, gresErr(el, "no name")
		}
		if r.Count == 0 {
			continue
		}
		if i := slices.IndexFunc(out, func(o GresReq) bool { return o.Name == r.Name && o.Type == r.Type }); i >= 0 {
			// Slurm keeps one record per name and type: a later element's count replaces
			// the earlier one's (--gpus-per-node=2 --gres=gpu:1 asks for one).
			out[i].Count = r.Count
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

func gresErr(el, why string) error {
	return &gresError{el: el, why: why}
}

type gresError struct{ el, why string }

func (e *gresError) Error() string { return ErrInvalidGres.Error() + ": " + e.el + ": " + e.why }
func (e *gresError) Unwrap() error { return ErrInvalidGres }

// gresNumber is strtoull plus suffix_mult: digits with an optional k/m/g/t/p (×1024 each
// step); anything else is not a number (and so, after one colon, a type).
func gresNumber(s string) (uint64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		// strtoull reads "" as 0; Slurm then fails suffix_mult for a non-empty rest,
		// and takes the token as a type.
		return 0, false
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	shift := 0
	switch strings.ToLower(s[i:]) {
	case "":
	case "k":
		shift = 10
	case "m":
		shift = 20
	case "g":
		shift = 30
	case "t":
		shift = 40
	case "p":
		shift = 50
	default:
		return 0, false
	}
	if shift > 0 && n > (^uint64(0))>>shift {
		return 0, false
	}
	return n << shift, true
}

// CheckGresNames reports ErrInvalidGres when a request names a GRES that GresTypes (a
// comma-separated list, as in slurm.conf) does not list: what Slurm's commands check
// before submitting and the controller checks again.
func CheckGresNames(reqs []GresReq, gresTypes string) error {
	for _, r := range reqs {
		known := false
		for _, t := range strings.Split(gresTypes, ",") {
			if strings.TrimSpace(t) == r.Name {
				known = true
				break
			}
		}
		if !known {
			return gresErr(r.Name, "not in GresTypes")
		}
	}
	return nil
}

// GresTypesHave says whether gresTypes (slurm.conf's GresTypes, comma-separated) lists
// name, compared as Slurm's commands compare it for gpu (any case).
func GresTypesHave(gresTypes, name string) bool {
	for _, t := range strings.Split(gresTypes, ",") {
		if strings.EqualFold(strings.TrimSpace(t), name) {
			return true
		}
	}
	return false
}

// CheckGres is the check sbatch, srun and salloc make on --gres before they send anything:
// it parses and every name is in gresTypes (slurm.conf's GresTypes). Errors wrap
// ErrInvalidGres, whose text the commands print.
func CheckGres(gres, gresTypes string) error {
	if gres == "" {
		return nil
	}
	reqs, err := ParseGres(gres)
	if err != nil {
		return err
	}
	return CheckGresNames(reqs, gresTypes)
}

// TresPerNode is a --gres value as Slurm keeps and shows it (scontrol's TresPerNode,
// squeue's %b): every element prefixed with "gres:" (gres_prepend_tres_type); "" stays "".
func TresPerNode(gres string) string {
	if gres == "" || strings.EqualFold(gres, "none") {
		return gres
	}
	s := "gres:" + strings.ReplaceAll(gres, ",", ",gres:")
	return strings.ReplaceAll(s, "gres:gres:", "gres:")
}
