package ctld

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Reconfiguration (Slurm's REQUEST_RECONFIGURE, `scontrol reconfigure`, and SIGHUP to
// slurmctld): slurm.conf and its companion files are read again and what can change at run
// time is applied at once: partitions and their limits and state, node weights and
// features, SchedulerParameters (the plugin is resynced with them), priority weights,
// timeouts, debug level. What Slurm 22.05 cannot change without a restart keeps its running
// value (read_slurm_conf in src/slurmctld/read_config.c):
//
//   - AuthType, CredType, SchedulerType, SelectType, SwitchType: the rest is applied and the
//     request fails with Slurm's ESLURM_INVALID_*_CHANGE ("... change requires restart ...");
//   - SelectTypeParameters is kept silently, as Slurm's _preserve_select_type_param does;
//   - Orbit cannot move its socket or state under running clients either: SlurmctldHost,
//     SlurmctldAddr, SlurmctldPort, StateSaveLocation, AuthInfo and PluginDir keep their
//     values, and the log says so;
//   - a changed CPU count or address of a node keeps the node as it was and fails the request
//     with ESLURM_NEED_RESTART, as Slurm's _restore_node_state does for the CPU count.
//
// Deliberately different: Slurm 22.05's slurmctld dies (fatal) when the new slurm.conf does
// not parse, and it adds or removes nodes on the fly. Orbit refuses such a file, or a change
// of the node set, or the removal of a partition that still holds jobs, with a message, and
// keeps the running configuration untouched.

// Slurm's errnos for a change that needs a restart (slurm/slurm_errno.h).
const (
	errnoAuthTypeChange   = 2030 // ESLURM_INVALID_AUTHTYPE_CHANGE
	errnoSchedTypeChange  = 2032 // ESLURM_INVALID_SCHEDTYPE_CHANGE
	errnoSelectTypeChange = 2033 // ESLURM_INVALID_SELECTTYPE_CHANGE
	errnoSwitchTypeChange = 2034 // ESLURM_INVALID_SWITCHTYPE_CHANGE
	errnoCredTypeChange   = 2043 // ESLURM_INVALID_CRED_TYPE_CHANGE
	errnoNeedRestart      = 2049 // ESLURM_NEED_RESTART
)

func init() {
	for errno, text := range map[int32]string{
		errnoAuthTypeChange:   "AuthType change requires restart of all Slurm daemons and commands to take effect",
		errnoSchedTypeChange:  "SchedulerType change requires restart of the slurmctld daemon to take effect",
		errnoSelectTypeChange: "SelectType change requires restart of the slurmctld daemon to take effect",
		errnoSwitchTypeChange: "SwitchType change requires restart of all Slurm daemons and jobs to take effect",
		errnoCredTypeChange:   "CredType change requires restart of all Slurm daemons to take effect",
		errnoNeedRestart:      "The node configuration changes that were made require restart of the slurmctld daemon to take effect",
	} {
		errnoTexts[errno] = text
	}
}

// reconfState serializes reconfigurations (Slurm's reconfig_mutex) and tells the
// scheduling loop to resync its plugin with the new configuration.
type reconfState struct {
	mu     sync.Mutex
	resync atomic.Bool // askPlan sends a full Sync (with the new SchedulerParameters) next
}

// kept is one slurm.conf value a running controller keeps.
type kept struct {
	key   string // as in the registry (Config.Raw)
	errno int32  // Slurm's refusal, 0 to keep it with a log line only
	get   func(*conf.Config) string
	set   func(dst, src *conf.Config)
}

// restartOnly are the values reconfigure does not change (see the top of this file).
var restartOnly = []kept{
	{"AuthType", errnoAuthTypeChange, func(c *conf.Config) string { return c.AuthType }, func(d, s *conf.Config) { d.AuthType = s.AuthType }},
	{"CredType", errnoCredTypeChange, func(c *conf.Config) string { return c.CredType }, func(d, s *conf.Config) { d.CredType = s.CredType }},
	{"SchedulerType", errnoSchedTypeChange, func(c *conf.Config) string { return c.SchedulerType }, func(d, s *conf.Config) { d.SchedulerType = s.SchedulerType }},
	{"SelectType", errnoSelectTypeChange, func(c *conf.Config) string { return c.SelectType }, func(d, s *conf.Config) { d.SelectType = s.SelectType }},
	{"SwitchType", errnoSwitchTypeChange, func(c *conf.Config) string { return c.SwitchType }, func(d, s *conf.Config) { d.SwitchType = s.SwitchType }},
	{"SelectTypeParameters", 0, func(c *conf.Config) string { return c.SelectTypeParameters }, func(d, s *conf.Config) { d.SelectTypeParameters = s.SelectTypeParameters }},
	{"SlurmctldHost", 0, func(c *conf.Config) string { return fmt.Sprint(c.SlurmctldHosts) }, func(d, s *conf.Config) { d.SlurmctldHosts = s.SlurmctldHosts }},
	{"SlurmctldAddr", 0, func(c *conf.Config) string { return c.SlurmctldAddr }, func(d, s *conf.Config) { d.SlurmctldAddr = s.SlurmctldAddr }},
	{"SlurmctldPort", 0, func(c *conf.Config) string { return fmt.Sprint(c.SlurmctldPort, c.SlurmctldPortCount) }, func(d, s *conf.Config) {
		d.SlurmctldPort, d.SlurmctldPortCount = s.SlurmctldPort, s.SlurmctldPortCount
	}},
	{"StateSaveLocation", 0, func(c *conf.Config) string { return c.StateSaveLocation }, func(d, s *conf.Config) { d.StateSaveLocation = s.StateSaveLocation }},
	{"AuthInfo", 0, func(c *conf.Config) string { return c.AuthInfo }, func(d, s *conf.Config) { d.AuthInfo = s.AuthInfo }},
	{"PluginDir", 0, func(c *conf.Config) string { return c.PluginDir }, func(d, s *conf.Config) { d.PluginDir = s.PluginDir }},
}

// handleReconfigure serves `scontrol reconfigure`: operators only. The reply comes once the
// new partition state is durable.
func (c *Controller) handleReconfigure(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	c.log.Info("Processing Reconfiguration Request", "uid", id.UID)
	if err := c.Reconfigure(ctx); err != nil {
		return nil, err
	}
	return &wire.OK{}, nil
}

// Reconfigure reads slurm.conf again and applies it (see the top of this file). It returns
// a *wire.Error: a file that does not load changes nothing; a restart-only change is
// reported after the rest was applied, as Slurm does.
func (c *Controller) Reconfigure(ctx context.Context) error {
	c.reconf.mu.Lock()
	defer c.reconf.mu.Unlock()
	c.mu.RLock()
	path := c.config().Path
	c.mu.RUnlock()
	next, err := conf.Load(path)
	if err != nil {
		c.log.Error("reconfigure refused: the configuration does not load; the running one stays", "path", path, "err", err)
		var es conf.Errors
		if errors.As(err, &es) && len(es) > 0 {
			err = es[0]
		}
		return wire.Errorf(wire.ErrnoSlurmError, "Unable to process configuration file %s: %v", path, err)
	}

	if err := checkLicenseConfig(next.Licenses); err != nil { // licenses.go
		c.log.Error("reconfigure refused; the running configuration stays", "err", err)
		return wire.Errorf(wire.ErrnoSlurmError, "%v", err)
	}
	c.mu.Lock()
	old := c.config()
	if err := c.t.reconfCheck(next); err != nil {
		c.mu.Unlock()
		c.log.Error("reconfigure refused; the running configuration stays", "err", err)
		return wire.Errorf(wire.ErrnoSlurmError, "%v", err)
	}
	var errno int32
	for _, k := range restartOnly {
		if k.get(old) == k.get(next) {
			continue
		}
		c.log.Error(k.key+" change requires a restart of slurmctld to take effect; the running value stays", "running", k.get(old), "new", k.get(next))
		k.set(next, old)
		if v, ok := old.Raw[k.key]; ok {
			next.Raw[k.key] = v
		} else {
			delete(next.Raw, k.key)
		}
		if k.errno != 0 {
			errno = k.errno
		}
	}
	if c.t.reconfNodes(next, c.log.Error) {
		errno = errnoNeedRestart
	}
	c.t.reconfGres(old, next, c.log.Error) // gres.go
	b := c.t.reconfParts(next)
	c.t.reconfNodeOverrides(b) // node_features.go
	c.t.recountUsers()         // a partition's ExclusiveUser may have changed (select_user.go)
	c.cfg.Store(next)
	c.groups.reset(groupUpdateTime(next))
	var perr error
	if c.pace, perr = parseSchedPacing(next.SchedulerParameters); perr != nil {
		c.log.Error("SchedulerParameters: using Slurm's default for what is invalid", "err", perr)
	}
	var pend *store.Pending
	if b.Len() > 0 {
		pend, err = c.store.Enqueue(c.ctx, b)
	}
	c.mu.Unlock()
	c.reconf.resync.Store(true)
	c.admin.reset() // slurm.conf's SlurmctldDebug, DebugFlags and dampening again, as Slurm's reconfigure
	if c.onReconf != nil {
		c.onReconf(next)
	}
	if err != nil {
		return wire.Errorf(wire.ErrnoSlurmError, "reconfigure not saved: %v", err)
	}
	if pend != nil {
		if err := pend.Wait(ctx); err != nil {
			return durabilityError(err)
		}
	}
	c.log.Info("reconfigured", "path", path)
	c.wake()
	if errno != 0 {
		return slurmErr(errno)
	}
	return nil
}

// reconfCheck refuses what Orbit does not change at run time: another set of nodes, or a
// partition removed while jobs still name it. Called with c.mu held.
func (t *tables) reconfCheck(next *conf.Config) error {
	names := make([]string, 0, len(next.Nodes))
	for _, n := range next.Nodes {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, t.nodeOrder) {
		return fmt.Errorf("nodes added to or removed from the configuration require a restart of slurmctld")
	}
	keep := map[string]bool{}
	for _, p := range next.Partitions {
		keep[p.Name] = true
	}
	for _, j := range t.jobs {
		if j.state().IsFinished() {
			continue
		}
		for _, pn := range strings.Split(j.Partition, ",") {
			if pn != "" && t.parts[pn] != nil && !keep[pn] {
				return fmt.Errorf("partition %s still holds job %d; it cannot be removed by reconfigure", pn, j.JobID)
			}
		}
	}
	return nil
}

// reconfNodes gives every node its new weight, features and the like. A node whose
// hardware or address changed keeps its running definition (with the new weight and
// features): it reports true then. The node set is the same (reconfCheck). Called with
// c.mu held.
func (t *tables) reconfNodes(next *conf.Config, logErr func(string, ...any)) (needRestart bool) {
	for i, n := range next.Nodes {
		e := t.nodes[n.Name]
		if e == nil {
			continue
		}
		was := e.conf
		if was.CPUs != n.CPUs || was.Sockets != n.Sockets || was.CoresPerSocket != n.CoresPerSocket ||
			was.ThreadsPerCore != n.ThreadsPerCore || was.RealMemory != n.RealMemory ||
			was.Addr != n.Addr || was.Hostname != n.Hostname || was.Port != n.Port {
			logErr("Configured node hardware or address change requires a restart of slurmctld", "node", n.Name)
			cp := *was
			cp.Weight, cp.Features, cp.Reason, cp.File, cp.Line = n.Weight, n.Features, n.Reason, n.File, n.Line
			*next.Nodes[i] = cp // the pointer stays: the config's node index refers to it
			needRestart = true
		}
		e.conf = next.Nodes[i]
	}
	return needRestart
}

// reconfParts rebuilds the partitions from next: run-time updates are dropped (their saved
// overrides deleted), as Slurm's reconfigure does, unless ReconfigFlags=KeepPartInfo keeps
// them or KeepPartState keeps their State. It returns the store changes. Called with c.mu
// held.
func (t *tables) reconfParts(next *conf.Config) *store.Batch {
	flags := strings.ToLower(next.Raw["ReconfigFlags"].Value)
	keepInfo := strings.Contains(flags, "keeppartinfo")
	keepState := strings.Contains(flags, "keeppartstate")
	olds := t.parts
	b := new(store.Batch)
	t.parts, t.partOrder, t.defPart = make(map[string]*partEntry, len(next.Partitions)), nil, ""
	for _, p := range next.Partitions {
		t.addPart(p, false)
		if olds[p.Name] == nil {
			b.Delete(kindPart, p.Name) // scontrol delete removed it; slurm.conf brings it back
		}
		if o := olds[p.Name]; o != nil && o.base != nil {
			r := partRecord{Name: p.Name, MaxTime: wire.NoVal}
			switch {
			case keepInfo:
				r = o.override
			case keepState:
				r.State = o.override.State
			}
			if r.empty() {
				b.Delete(kindPart, p.Name)
				continue
			}
			if v, err := wire.Marshal(&r); err == nil {
				b.Put(kindPart, p.Name, v)
			}
			t.installPart(r)
		}
	}
	for name, o := range olds {
		if t.parts[name] == nil && o.base != nil {
			b.Delete(kindPart, name)
		}
	}
	return b
}

// schedPace is SchedulerParameters' pacing of the scheduling loop now: reconfigure changes
// it under the state lock.
func (c *Controller) schedPace() schedPacing {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.pace
}
