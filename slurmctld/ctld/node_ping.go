package ctld

import (
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Node pings, as Slurm's ping_nodes.c does them: every ping_interval (SlurmdTimeout/3, not
// capped; 100 s when SlurmdTimeout=0) the controller sends one broadcast down the forwarding
// tree (TreeWidth) to the nodes it has not heard from within SlurmdTimeout/3, and a
// registration request (REQUEST_NODE_REGISTRATION_STATUS) to the nodes that are UNKNOWN,
// to every node on the first sweep after the controller starts (so a restarted controller
// reconciles each node's running jobs), and to a window of TreeWidth nodes that moves by
// TreeWidth each sweep (Slurm's MAX_REG_FREQUENCY rotation; it includes DOWN nodes, which is
// how a node DOWN "Not responding" whose slurmd lives comes back). A node that does not answer
// becomes NOT_RESPONDING (the `*` suffix) at once; checkNodeHealth sets it DOWN with reason
// "Not responding" once SlurmdTimeout has passed since its last contact. A new sweep never
// starts while one runs (Slurm's is_ping_done).

// maxRegFrequency is Slurm's MAX_REG_FREQUENCY: the registration window wraps no sooner than
// after this many sweeps.
const maxRegFrequency = 20

// firstSweepDelay is Slurm's MIN_CHECKIN_TIME: the first sweep waits for slurmd processes
// that start with the controller to register on their own.
const firstSweepDelay = 3 * time.Second

// defaultTreeWidth is Slurm 22.05's DEFAULT_TREE_WIDTH (conf applies it too).
const defaultTreeWidth = 50

// fanoutState is the ping sweep's and the broadcasts' run-time state (memory only).
type fanoutState struct {
	mu        sync.Mutex
	next      time.Time // when the next sweep is due (wall clock)
	sweeping  bool
	sweeps    int // sweeps started
	regOffset int
	pending   map[bcastKey][]string // terminate and signal tasks waiting for their broadcast
	last      SweepStats
}

// SweepStats describes one ping sweep (also logged, for tests and benchmarks).
type SweepStats struct {
	Pinged       int           // nodes sent a ping
	Registered   int           // nodes asked to register
	Failed       int           // nodes that did not answer
	Forwards     int           // Forward requests the slurmds served for the sweep
	Dials        int           // connections opened, by the controller and the slurmds
	Duration     time.Duration // from the first call to the aggregated answers
	PingDuration time.Duration // the same for the ping broadcast alone
	// PeakGoroutines is the controller's most goroutines seen during the sweep, sampled
	// every millisecond when debug logging is on (0 otherwise): the tree keeps it near
	// TreeWidth above the resting count, whatever the number of nodes.
	PeakGoroutines int
}

// pingInterval is Slurm's ping_interval.
func (c *Controller) pingInterval() time.Duration {
	if c.config().SlurmdTimeout == 0 {
		return 100 * time.Second
	}
	return max(time.Duration(c.config().SlurmdTimeout)*time.Second/3, time.Second)
}

// treeWidth is TreeWidth (conf refuses 0 with Slurm's warning and applies the default).
func (c *Controller) treeWidth() int {
	if c.config().TreeWidth == 0 {
		return defaultTreeWidth
	}
	return int(c.config().TreeWidth)
}

// maybePing starts a sweep in the background when one is due and none runs. The limits loop
// calls it every second.
func (c *Controller) maybePing() {
	f := &c.fan
	now := time.Now()
	f.mu.Lock()
	if f.next.IsZero() {
		f.next = now.Add(min(firstSweepDelay, c.pingInterval()))
	}
	if f.sweeping || now.Before(f.next) || c.ctx.Err() != nil {
		f.mu.Unlock()
		return
	}
	f.sweeping = true
	first := f.sweeps == 0
	f.sweeps++
	f.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		st := c.sweep(first, false)
		f.mu.Lock()
		f.sweeping = false
		f.next = time.Now().Add(c.pingInterval())
		f.last = st
		f.mu.Unlock()
	}()
}

// PingNodes pings every node that is neither FUTURE nor DOWN at once, whatever its last
// contact, and returns what the sweep did (benchmarks and tests; the periodic sweep runs by
// itself).
func (c *Controller) PingNodes() SweepStats { return c.sweep(false, true) }

// sweep is one ping cycle: choose the nodes, broadcast, record who answered.
func (c *Controller) sweep(first, all bool) SweepStats {
	now := c.now().Unix()
	timeout := int64(c.config().SlurmdTimeout)
	width := c.treeWidth()
	var ping, reg []string

	c.mu.RLock()
	f := &c.fan
	f.mu.Lock()
	count := len(c.t.nodeOrder)
	f.regOffset += width
	if f.regOffset > count && f.regOffset >= width*maxRegFrequency {
		f.regOffset = 0
	}
	lo, hi := f.regOffset, f.regOffset+width
	f.mu.Unlock()
	for i, name := range c.t.nodeOrder {
		n := c.t.nodes[name]
		st := states.NodeState(n.rec.State)
		if st.Base() == states.NodeFuture {
			continue
		}
		if all {
			if st.Base() != states.NodeDown {
				ping = append(ping, name)
			}
			continue
		}
		if timeout == 0 && !first && st.Base() != states.NodeUnknown && !n.noRespond {
			continue
		}
		if first || st.Base() == states.NodeUnknown || n.rec.BootTime == 0 || (i >= lo && i < hi) {
			reg = append(reg, name)
			continue
		}
		// Heard from within the interval (a registration, a job's end): no ping needed. The
		// next sweep starts an interval after this one ends, so a node that answered this
		// sweep is pinged again by the next one.
		if !n.noRespond && n.lastContact > now-timeout/3 {
			continue
		}
		if n.noRespond && st.Base() == states.NodeDown {
			continue // Slurm stops pinging DOWN nodes; the registration window still reaches them
		}
		ping = append(ping, name)
	}
	c.mu.RUnlock()

	var stats SweepStats
	start := time.Now()
	stopSampling := c.sampleGoroutines(&stats.PeakGoroutines)
	var wg sync.WaitGroup
	var pingRep, regRep *wire.ForwardReply
	if len(ping) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pingRep = c.broadcast(wire.MsgPing, &wire.Ping{SentNanos: start.UnixNano()}, ping)
			stats.PingDuration = time.Since(start)
		}()
	}
	if len(reg) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			regRep = c.broadcast(wire.MsgRegistrationStatus, &wire.RegistrationStatus{}, reg)
		}()
	}
	wg.Wait()
	stats.Duration = time.Since(start)
	stopSampling()
	stats.Pinged, stats.Registered = len(ping), len(reg)
	rep := wire.MergeReplies(pingRep, regRep)
	stats.Forwards, stats.Dials = int(rep.Forwards), int(rep.Dials)

	var failed []string
	answered := c.now().Unix()
	c.mu.Lock()
	for _, r := range rep.Results {
		load := pingLoad(r) // one decoding per group of nodes that answered alike
		for _, name := range r.Nodes {
			n := c.t.nodes[name]
			if n == nil {
				continue
			}
			if r.Unreached() {
				failed = append(failed, name)
				if states.NodeState(n.rec.State).Base() != states.NodeDown {
					n.noRespond = true // NOT_RESPONDING until it answers; DOWN after SlurmdTimeout
				}
				continue
			}
			n.lastContact = max(n.lastContact, answered)
			n.noRespond = false
			if load.Known {
				n.load = load
			}
		}
	}
	c.mu.Unlock()
	stats.Failed = len(failed)
	if len(ping)+len(reg) > 0 {
		c.log.Debug("ping sweep", "pinged", stats.Pinged, "registration_requests", stats.Registered,
			"failed", stats.Failed, "forwards", stats.Forwards, "dials", stats.Dials, "ms", stats.Duration.Milliseconds(), "ping_ms", stats.PingDuration.Milliseconds(), "peak_goroutines", stats.PeakGoroutines)
	}
	if len(failed) > 0 {
		c.log.Info("nodes not responding", "nodes", hostlist.CompressSorted(failed))
	}
	if len(failed) < len(ping)+len(reg) {
		c.wake() // answering nodes may be usable again
	}
	return stats
}

// sampleGoroutines records the peak goroutine count into *peak until the returned function
// is called; it does nothing unless debug logging is on.
func (c *Controller) sampleGoroutines(peak *int) (stop func()) {
	if !c.log.Enabled(c.ctx, slog.LevelDebug) {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			*peak = max(*peak, runtime.NumGoroutine())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// broadcast sends msg to nodes down the forwarding tree, signed by the controller, and
// returns the one aggregated reply. Nodes not in the tables are left out.
func (c *Controller) broadcast(t wire.MsgType, msg any, nodes []string) *wire.ForwardReply {
	c.mu.RLock()
	known := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if c.t.nodes[n] != nil {
			known = append(known, n)
		}
	}
	groups := wire.GroupByAddr(known, func(n string) string { return c.nodeAddr(c.t.nodes[n]) })
	c.mu.RUnlock()
	hop := c.nodeOpt.MessageTimeout
	if hop <= 0 {
		hop = wire.DefaultMessageTimeout
	}
	b, err := wire.NewBroadcast(t, msg, c.nodeOpt.Signer, c.treeWidth(), hop)
	if err != nil {
		c.log.Error("cannot sign broadcast", "type", t, "err", err)
		res := wire.ForwardResult{Nodes: known, Errno: wire.ErrnoAuthentication, Text: err.Error()}
		return &wire.ForwardReply{Results: []wire.ForwardResult{res}}
	}
	return b.Send(c.ctx, groups)
}

// lastSweep returns the stats of the last periodic sweep (tests).
func (c *Controller) lastSweep() SweepStats {
	c.fan.mu.Lock()
	defer c.fan.mu.Unlock()
	return c.fan.last
}

// pingLoad is the machine load the nodes of a ping result reported (wire.HostLoad), the
// zero value for another answer.
func pingLoad(r wire.ForwardResult) wire.HostLoad {
	if r.Errno != 0 || r.RespType != wire.MsgPingReply || len(r.RespBody) == 0 {
		return wire.HostLoad{}
	}
	var pr wire.PingReply
	if err := wire.Unmarshal(r.RespBody, &pr); err != nil {
		return wire.HostLoad{}
	}
	return pr.Load
}
