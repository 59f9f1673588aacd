package ctld

import (
	"context"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// AllocNode, as Slurm's _set_hostname sets it: the submitting host as the controller sees
// it, its address resolved to a name (Slurm resolves the address in the auth credential;
// on loopback that is "localhost", whatever the host calls itself). The client's own name
// (SubmitHost, SLURM_SUBMIT_HOST) stands in when the address does not resolve or the
// request came over a Unix socket.

// allocNodeTTL is how long a resolved name is reused: a burst of submissions from one
// login node costs one lookup.
const allocNodeTTL = 10 * time.Minute

// allocNodeTimeout bounds one lookup: a slow resolver delays a submission by no more.
const allocNodeTimeout = 2 * time.Second

// allocNodeCache maps a peer IP to its resolved name.
type allocNodeCache struct {
	mu    sync.Mutex
	names map[string]resolvedName
}

type resolvedName struct {
	name string // "" = did not resolve
	at   time.Time
}

// allocNode is the AllocNode of a request: its peer address's name, else fallback.
func (c *Controller) allocNode(ctx context.Context, req *wire.Request, fallback string) string {
	addr, ok := req.RemoteAddr.(*net.TCPAddr)
	if !ok || addr == nil {
		return fallback
	}
	ip := addr.IP.String()
	now := time.Now()
	cache := &c.allocNodes
	cache.mu.Lock()
	r, hit := cache.names[ip]
	cache.mu.Unlock()
	if !hit || now.Sub(r.at) > allocNodeTTL {
		lctx, cancel := context.WithTimeout(ctx, allocNodeTimeout)
		names, err := net.DefaultResolver.LookupAddr(lctx, ip)
		cancel()
		r = resolvedName{at: now}
		if err == nil && len(names) > 0 {
			r.name = strings.TrimSuffix(names[0], ".")
		}
		cache.mu.Lock()
		if cache.names == nil {
			cache.names = map[string]resolvedName{}
		}
		cache.names[ip] = r
		cache.mu.Unlock()
	}
	if r.name == "" {
		return fallback
	}
	return r.name
}
