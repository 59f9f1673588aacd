package node

import (
	"os"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// DeadNodesEnv names the file of emulated nodes that do not answer (a test-only knob of the
// emulation: benchmarks and tests of node loss at scale). The file holds one hostlist
// expression; slurmd rereads it whenever it changes. A node listed there drops every
// broadcast it is sent (the forwarder holding it waits out its budget and reports it timed
// out, as for a real node that does not answer), and neither registers nor answers a
// registration request. Nodes not hosted here are ignored; an empty or absent file means
// every node answers.
const DeadNodesEnv = "ORBIT_EMULATE_DEAD_NODES"

// deadNodes is the cached content of the DeadNodesEnv file.
type deadNodes struct {
	path    string
	mu      sync.Mutex
	checked time.Time // last stat, so a ping storm costs one stat per 100 ms
	mtime   time.Time
	size    int64
	set     map[string]bool
}

// newDeadNodes returns the knob for path ("" = off).
func newDeadNodes(path string) *deadNodes {
	if path == "" {
		return nil
	}
	return &deadNodes{path: path}
}

// current returns the set of dead nodes (nil when none).
func (k *deadNodes) current() map[string]bool {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	now := time.Now()
	if now.Sub(k.checked) < 100*time.Millisecond {
		return k.set
	}
	k.checked = now
	fi, err := os.Stat(k.path)
	if err != nil {
		k.set, k.mtime, k.size = nil, time.Time{}, 0
		return nil
	}
	if fi.ModTime().Equal(k.mtime) && fi.Size() == k.size {
		return k.set
	}
	k.mtime, k.size = fi.ModTime(), fi.Size()
	b, err := os.ReadFile(k.path)
	if err != nil {
		return k.set
	}
	names, err := hostlist.Expand(strings.TrimSpace(string(b)))
	if err != nil {
		return k.set // a half-written file: keep the last good set
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	k.set = set
	return set
}

// isDead reports whether node is emulated as not answering.
func (d *Daemon) isDead(node string) bool {
	return d.dead.current()[node]
}

// firstNonEmpty returns the first of v that is not empty.
func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}
