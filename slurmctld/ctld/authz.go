package ctld

import (
	"os/user"
	"strconv"
	"strings"
	"sync"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Authorization as in Slurm: users act on their own jobs; root and SlurmUser act on all. When
// the controller runs unprivileged (tests, the quick start), its own uid counts as SlurmUser:
// the daemons and their messages all run as that user.

// privileged reports whether id may act on every job and speak for nodes.
func (c *Controller) privileged(id *wire.Identity) bool {
	if id == nil {
		return false
	}
	return id.UID == 0 || id.UID == c.slurmUID || id.UID == c.selfUID
}

// identity returns the request's authenticated identity, or Slurm's authentication error when
// the server ran without an authenticator (never in a real controller).
func identity(req *wire.Request) (*wire.Identity, error) {
	if req.Identity == nil {
		return nil, wire.NewError(wire.ErrnoAuthentication)
	}
	return req.Identity, nil
}

// memoryTracked says whether SelectTypeParameters make memory a consumable resource.
func memoryTracked(params string) bool {
	for _, p := range strings.Split(params, ",") {
		if strings.HasSuffix(strings.ToUpper(strings.TrimSpace(p)), "_MEMORY") {
			return true
		}
	}
	return false
}

// nameCache resolves uids and gids to names once each (user and group lookups may hit NSS).
type nameCache struct {
	mu     sync.Mutex
	users  map[uint32]string
	groups map[uint32]string
}

func (n *nameCache) user(uid uint32) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s, ok := n.users[uid]; ok {
		return s
	}
	name := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(name); err == nil {
		name = u.Username
	}
	if n.users == nil {
		n.users = map[uint32]string{}
	}
	n.users[uid] = name
	return name
}

func (n *nameCache) group(gid uint32) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s, ok := n.groups[gid]; ok {
		return s
	}
	name := strconv.FormatUint(uint64(gid), 10)
	if g, err := user.LookupGroupId(name); err == nil {
		name = g.Name
	}
	if n.groups == nil {
		n.groups = map[uint32]string{}
	}
	n.groups[gid] = name
	return name
}
