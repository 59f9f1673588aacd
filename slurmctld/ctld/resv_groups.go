package ctld

import (
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/internal/userdb"
)

// A reservation's Groups= admits the members of those groups (Slurm's get_groups_members):
// the group names are kept as given, and their members' uids stand where Users= would put
// the users'. Slurm resolves the members when the reservation is created or its groups
// change; so does Orbit, before it takes the controller's lock, since listing a site's
// groups and users may take long.

const errnoGroupIDMissing = 2113 // ESLURM_GROUP_ID_MISSING

func init() { errnoTexts[errnoGroupIDMissing] = "Invalid group id" }

// resvGroupUIDs lists the members of the comma-separated groups as Slurm's
// get_groups_members does; ok is false when no group is known and has anybody in it,
// which Slurm refuses. Slurm ends each group's list at uid 0 (its terminator), so root, and
// whoever its group lists after root, is never admitted through Groups=; a list that ends
// up empty admits every user, as Slurm's user count of 0 does.
func resvGroupUIDs(groups string) (uids []uint32, ok bool) {
	for _, g := range strings.Split(groups, ",") {
		if g == "" {
			continue
		}
		members, err := userdb.GroupMembers(g)
		if err != nil {
			continue
		}
		ok = true
		for _, u := range members {
			if u == 0 {
				break
			}
			if !slices.Contains(uids, u) {
				uids = append(uids, u)
			}
		}
	}
	return uids, ok
}

// editResvGroups applies an update's Groups= to the reservation's list (Slurm's
// _update_group_uid_list): "+g" adds g, "-g" removes it, a plain list replaces the whole
// list, and a plain name after a + or - item makes the expression invalid (ok false).
func editResvGroups(cur, expr string) (groups string, ok bool) {
	list := splitNonEmpty(cur)
	edited := false
	for _, tok := range splitNonEmpty(expr) {
		switch tok[0] {
		case '-':
			list = slices.DeleteFunc(list, func(g string) bool { return g == tok[1:] })
			edited = true
		case '+':
			if !slices.Contains(list, tok[1:]) {
				list = append(list, tok[1:])
			}
			edited = true
		default:
			if edited {
				return "", false
			}
			return expr, true
		}
	}
	return strings.Join(list, ","), true
}

func splitNonEmpty(s string) []string {
	return slices.DeleteFunc(strings.Split(s, ","), func(x string) bool { return x == "" })
}
