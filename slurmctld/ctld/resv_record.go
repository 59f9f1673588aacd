package ctld

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Advance reservations (scontrol create reservation; Slurm's reservation.c): a set of nodes
// held from StartTime to EndTime for the users and accounts named. While one is active its
// nodes take only jobs that name it (--reservation), and jobs that name it run only there;
// the scheduler plugins keep to that (plugins/scheduler reservation.go), and the controller
// checks every start against it (resv_jobs.go). A reservation is stored under kind "resv"
// and survives a restart; when it ends it is deleted or, if it recurs, moved to its next
// window (resv_end.go).

const (
	kindResv          = "resv"
	counterResvSuffix = "resv_suffix" // the N of generated names USER_N (Slurm's top_suffix)
)

// resvRecord is one reservation as stored. Installed records are immutable, like jobs.
type resvRecord struct {
	Name      string `codec:"name"`
	Seq       uint64 `codec:"seq"` // creation order: scontrol and sinfo list in it
	StartTime int64  `codec:"start_time"`
	EndTime   int64  `codec:"end_time"`
	// Duration is the length asked for, in minutes, from which an update of the start or
	// of the duration computes the end; wire.NoVal when the window was given by its end
	// time (Slurm's resv_ptr->duration, with its arithmetic).
	Duration  uint32   `codec:"duration"`
	Nodes     []string `codec:"nodes"` // in configuration order
	Partition string   `codec:"partition"`
	Flags     uint64   `codec:"flags"` // wire.Resv* bits
	// Users are user names as shown; UIDs the same users resolved at create or update.
	// UsersNot: the list names the users refused, not those admitted (Users=-alice).
	Users    []string `codec:"users"`
	UIDs     []uint32 `codec:"uids"`
	UsersNot bool     `codec:"users_not"`
	// Groups are Groups= as given; their members' uids, resolved when they were set, are
	// in UIDs (Users stays empty: the two exclude each other).
	Groups string `codec:"groups"`
	// Accounts admits jobs of these accounts; AccountsNot refuses them instead.
	Accounts      []string `codec:"accounts"`
	AccountsNot   bool     `codec:"accounts_not"`
	PurgeCompTime uint32   `codec:"purge_comp_time"`
	// PrologRan and EpilogRan: ResvProlog and ResvEpilog ran for the current window (Slurm's
	// RESV_CTLD_PROLOG and RESV_CTLD_EPILOG), so a restarted controller does not run them
	// again.
	PrologRan     bool   `codec:"prolog_ran,omitempty"`
	EpilogRan     bool   `codec:"epilog_ran,omitempty"`
	MaxStartDelay uint32 `codec:"max_start_delay"`
	// Features are the node features the reservation's nodes were chosen by (Features=,
	// as given; nodes named with Nodes= need not have them).
	Features string `codec:"features,omitempty"`
}

func (r *resvRecord) clone() *resvRecord {
	c := *r
	c.Nodes = slices.Clone(r.Nodes)
	c.Users, c.UIDs, c.Accounts = slices.Clone(r.Users), slices.Clone(r.UIDs), slices.Clone(r.Accounts)
	return &c
}

// activeAt says whether the reservation's window holds now.
func (r *resvRecord) activeAt(now int64) bool { return r.StartTime <= now && now < r.EndTime }

// overlaps says whether the reservation's window meets [start, end).
func (r *resvRecord) overlaps(start, end int64) bool { return r.StartTime < end && start < r.EndTime }

func (r *resvRecord) has(flag uint64) bool { return r.Flags&flag != 0 }

// recurs says whether the reservation moves to a next window when it ends.
func (r *resvRecord) recurs() bool {
	return r.Flags&(wire.ResvHourly|wire.ResvDaily|wire.ResvWeekday|wire.ResvWeekend|wire.ResvWeekly) != 0
}

// hasNode says whether node is one of the reservation's.
func (r *resvRecord) hasNode(node string) bool { return slices.Contains(r.Nodes, node) }

// resvCPUs is the CPUs of the reservation's nodes (CoreCnt and TRES=cpu=, as Slurm counts a
// whole-node reservation).
func (t *tables) resvCPUs(r *resvRecord) uint32 {
	var n uint32
	for _, name := range r.Nodes {
		if e := t.nodes[name]; e != nil {
			n += e.cpus()
		}
	}
	return n
}

// installResv puts r into the tables, replacing the one of its name.
func (t *tables) installResv(r *resvRecord) {
	if t.resvs == nil {
		t.resvs = map[string]*resvRecord{}
	}
	t.resvs[r.Name] = r
	t.resvSeq = max(t.resvSeq, r.Seq+1)
}

// resvList is every reservation in creation order.
func (t *tables) resvList() []*resvRecord {
	out := make([]*resvRecord, 0, len(t.resvs))
	for _, r := range t.resvs {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *resvRecord) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// nodeResvFlags are the state flags reservations active at now give each node: RESERVED, and
// MAINT for a maintenance reservation. Nil when no reservation is active. They hold from the
// window's first second; Slurm sets them at its next reservation timer, a few seconds later.
func (t *tables) nodeResvFlags(now int64) map[string]states.NodeState {
	var out map[string]states.NodeState
	for _, r := range t.resvs {
		if !r.activeAt(now) {
			continue
		}
		f := states.NodeReserved
		if r.has(wire.ResvMaint) {
			f |= states.NodeMaint
		}
		if out == nil {
			out = map[string]states.NodeState{}
		}
		for _, n := range r.Nodes {
			out[n] |= f
		}
	}
	return out
}

// schedResvs is the reservations as the scheduler plugins see them, in creation order.
func (t *tables) schedResvs() []scheduler.AdvanceReservation {
	if len(t.resvs) == 0 {
		return nil
	}
	var out []scheduler.AdvanceReservation
	for _, r := range t.resvList() {
		a := scheduler.AdvanceReservation{Name: r.Name, StartTime: r.StartTime, EndTime: r.EndTime,
			Nodes: slices.Clone(r.Nodes), Maint: r.has(wire.ResvMaint), AllNodes: r.has(wire.ResvAllNodes), Flex: r.has(wire.ResvFlex)}
		if r.has(wire.ResvPartNodes) {
			a.PartNodes = r.Partition
		}
		out = append(out, a)
	}
	return out
}

// resvInfo is r as scontrol show reservation and sinfo -T print it.
func (t *tables) resvInfo(r *resvRecord) wire.ResvInfo {
	cpus := t.resvCPUs(r)
	users := strings.Join(r.Users, ",")
	accts := strings.Join(r.Accounts, ",")
	if r.UsersNot {
		users = "-" + strings.Join(r.Users, ",-")
	}
	if r.AccountsNot {
		accts = "-" + strings.Join(r.Accounts, ",-")
	}
	info := wire.ResvInfo{
		Name: r.Name, StartTime: r.StartTime, EndTime: r.EndTime,
		Nodes: hostlist.Compress(r.Nodes), NodeCnt: uint32(len(r.Nodes)), CoreCnt: cpus,
		Partition: r.Partition, Flags: r.Flags, PurgeCompTime: r.PurgeCompTime,
		Users: users, Groups: r.Groups, Accounts: accts, Watts: wire.NoVal, MaxStartDelay: r.MaxStartDelay,
		Features: r.Features,
	}
	if cpus > 0 {
		info.TRES = fmt.Sprintf("cpu=%d", cpus)
	}
	return info
}

// recoverResvs loads the saved reservations and the name counter.
func (c *Controller) recoverResvs() error {
	n, err := c.store.Counter(counterResvSuffix)
	if err != nil {
		return err
	}
	c.t.resvSuffix = uint32(n)
	return c.store.Load(kindResv, func(key string, v []byte) error {
		r := new(resvRecord)
		if err := wire.Unmarshal(v, r); err != nil {
			return fmt.Errorf("reservation record %s in %s: %w", key, c.store.Path(), err)
		}
		r.Nodes = slices.DeleteFunc(r.Nodes, func(n string) bool { return c.t.nodes[n] == nil })
		c.t.installResv(r)
		return nil
	})
}

// changeResv puts or deletes one reservation, and moves the name counter.
type changeResv struct {
	put    *resvRecord
	delete string
	suffix uint32 // 0 = unchanged
}

func (ch changeResv) plan(t *tables) (*effects, error) {
	e := &effects{resvSuffix: ch.suffix}
	if ch.put != nil {
		e.resvs = []*resvRecord{ch.put}
	}
	if ch.delete != "" {
		if t.resvs[ch.delete] == nil {
			return nil, fmt.Errorf("reservation %s does not exist", ch.delete)
		}
		e.resvsGone = []string{ch.delete}
	}
	return e, nil
}

// handleResvInfo serves MsgResvInfo (scontrol show reservation, sinfo -T): every
// reservation, in creation order.
func (c *Controller) handleResvInfo(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	now := c.now().Unix()
	c.mu.RLock()
	defer c.mu.RUnlock()
	rep := &wire.ResvInfoReply{Now: now}
	for _, r := range c.t.resvList() {
		rep.Reservations = append(rep.Reservations, c.t.resvInfo(r))
	}
	return rep, nil
}
