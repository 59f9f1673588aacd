package ctld

import (
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// HealthCheckInterval as Slurm 22.05's controller runs it (run_health_check): every
// HealthCheckInterval seconds, when no ping sweep is running, it asks the nodes that
// HealthCheckNodeState selects to run HealthCheckProgram (MsgHealthCheck down the forwarding
// tree; slurmd runs the program, slurmd/node/health_check.go). Nodes not responding and
// FUTURE nodes are left out; IDLE, MIXED and ALLOC are judged by the CPUs allocated on the
// node. With CYCLE the nodes are asked a slice at a time, every second, max(10, 2 × nodes /
// interval) per slice, and a new round starts an interval after the last one started.

// healthCheckState is the rounds' run-time state (memory only).
type healthCheckState struct {
	mu         sync.Mutex
	started    time.Time // the first call, near the controller's start
	last       time.Time // when the last round (not CYCLE) started
	cycleStart time.Time // CYCLE: when the current round started
	next       int       // CYCLE: index in nodeOrder of the next node to ask
	running    bool      // a broadcast is under way
}

// maybeHealthCheck starts a round (or, with CYCLE, its next slice) in the background when
// one is due. The limits loop calls it every second.
func (c *Controller) maybeHealthCheck() {
	cfg := c.config()
	if cfg.HealthCheckInterval == 0 || cfg.HealthCheckProgram == "" || c.ctx.Err() != nil {
		return
	}
	c.fan.mu.Lock()
	sweeping := c.fan.sweeping
	c.fan.mu.Unlock()
	h := &c.health
	now := time.Now()
	interval := time.Duration(cfg.HealthCheckInterval) * time.Second
	cyclic := cfg.HealthCheckNodeState&conf.HealthCheckCycle != 0
	h.mu.Lock()
	if h.started.IsZero() {
		h.started = now // the first round comes an interval after the controller starts
	}
	switch {
	case now.Sub(h.started) < interval:
		h.mu.Unlock()
		return
	case sweeping || h.running: // Slurm's is_ping_done
		h.mu.Unlock()
		return
	case cyclic && h.next == 0 && !h.cycleStart.IsZero() && now.Sub(h.cycleStart) < interval:
		h.mu.Unlock()
		return
	case !cyclic && !h.last.IsZero() && now.Sub(h.last) < interval:
		h.mu.Unlock()
		return
	}
	if cyclic && h.next == 0 {
		h.cycleStart = now
	}
	if !cyclic {
		h.last = now
	}
	h.running = true
	from := h.next
	h.mu.Unlock()

	nodes, next := c.healthCheckNodes(cfg.HealthCheckNodeState, cyclic, from, int(cfg.HealthCheckInterval))
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if len(nodes) > 0 {
			c.log.Debug("spawning health check agent", "nodes", hostlist.CompressSorted(nodes))
			rep := c.broadcast(wire.MsgHealthCheck, &wire.HealthCheck{}, nodes)
			for _, r := range rep.Results {
				if r.Errno != 0 && !r.Unreached() {
					c.log.Error("health check request refused", "nodes", hostlist.CompressSorted(r.Nodes), "err", r.Text)
				}
			}
		}
		h.mu.Lock()
		h.running, h.next = false, next
		h.mu.Unlock()
	}()
}

// healthCheckNodes is the nodes to ask, from index from of the node order on, and where the
// next slice starts (0: the round is over). Without CYCLE, every node is looked at.
func (c *Controller) healthCheckNodes(flags uint16, cyclic bool, from, interval int) ([]string, int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	count := len(c.t.nodeOrder)
	limit := count
	if cyclic {
		limit = max(count*2/interval, 10)
	}
	var nodes []string
	i := min(from, count)
	for tested := 0; i < count && tested < limit; i++ {
		tested++
		n := c.t.nodes[c.t.nodeOrder[i]]
		if n.noRespond || states.NodeState(n.rec.State).Base() == states.NodeFuture {
			continue
		}
		if flags&conf.HealthCheckAny != conf.HealthCheckAny {
			used, total := n.busyCPUs(), n.cpus()
			switch {
			case used == 0:
				if flags&conf.HealthCheckIdle == 0 || states.NodeState(n.rec.State).Base() != states.NodeIdle {
					continue
				}
			case used < total:
				if flags&conf.HealthCheckMixed == 0 {
					continue
				}
			default:
				if flags&conf.HealthCheckAlloc == 0 {
					continue
				}
			}
		}
		nodes = append(nodes, c.t.nodeOrder[i])
	}
	if i >= count {
		i = 0
	}
	return nodes, i
}
