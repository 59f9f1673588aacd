package ctld

import (
	"context"
	"sync"

	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// errEACCES is these RPCs' refusal of a user who is not an operator: Slurm answers them with
// the system's EACCES, not its own access-denied error.
func errEACCES() error { return wire.Errorf(13, "Permission denied") }

// adminSettings is what scontrol setdebug, setdebugflags and fsdampeningfactor changed of
// slurm.conf's SlurmctldDebug, DebugFlags and FairShareDampeningFactor; a reconfigure reads
// slurm.conf again and drops them all, as Slurm's does.
type adminSettings struct {
	mu      sync.Mutex
	level   string  // a loglevel.Name; "" = SlurmctldDebug
	flags   *uint64 // nil = DebugFlags
	fsDamp  uint16  // FairShareDampeningFactor set by scontrol; 0 = slurm.conf's
	onLevel func(level string)
}

func (l *adminSettings) get() (string, *uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.flags == nil {
		return l.level, nil
	}
	f := *l.flags
	return l.level, &f
}

func (l *adminSettings) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.level, l.flags, l.fsDamp = "", nil, 0
}

// dampening is the FairShareDampeningFactor scontrol set, 0 for slurm.conf's.
func (l *adminSettings) dampening() uint16 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fsDamp
}

// handleSetDebugLevel serves scontrol setdebug (Slurm's REQUEST_SET_DEBUG_LEVEL): operators
// only. The controller's log level follows at once; show config prints the new level.
func (c *Controller) handleSetDebugLevel(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, errEACCES()
	}
	r := req.Body.(*wire.SetDebugLevelRequest)
	if r.Level > uint32(loglevel.Debug5) {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "invalid debug level %d", r.Level)
	}
	name := loglevel.Name(uint16(r.Level))
	c.admin.mu.Lock()
	c.admin.level = name
	on := c.admin.onLevel
	c.admin.mu.Unlock()
	if on != nil {
		on(name)
	}
	c.log.Info("debug level set", "level", name, "uid", id.UID)
	return &wire.OK{}, nil
}

// handleSetDebugFlags serves scontrol setdebugflags (REQUEST_SET_DEBUGFLAGS): operators only.
// Orbit's controller logs no more for a flag; show config prints the flags set.
func (c *Controller) handleSetDebugFlags(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, errEACCES()
	}
	r := req.Body.(*wire.SetDebugFlagsRequest)
	c.admin.mu.Lock()
	defer c.admin.mu.Unlock()
	var cur uint64
	if c.admin.flags != nil {
		cur = *c.admin.flags
	} else if f, _, err := conf.ParseDebugFlags(c.config().DebugFlags); err == nil {
		cur = f
	}
	cur = cur&^r.Minus | r.Plus
	c.admin.flags = &cur
	return &wire.OK{}, nil
}

// handleSetFSDampening serves scontrol fsdampeningfactor (REQUEST_SET_FS_DAMPENING_FACTOR):
// operators only. The fair-share factors are computed again with the next priority pass, as
// Slurm's priority_g_reconfig has them.
func (c *Controller) handleSetFSDampening(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, errEACCES()
	}
	r := req.Body.(*wire.SetFSDampeningRequest)
	if r.Factor == 0 {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "invalid dampening factor 0")
	}
	c.admin.mu.Lock()
	c.admin.fsDamp = r.Factor
	c.admin.mu.Unlock()
	c.mu.Lock()
	c.prio().lastCalc = 0 // due now
	c.mu.Unlock()
	c.wake()
	c.log.Info("FairShareDampeningFactor set", "factor", r.Factor, "uid", id.UID)
	return &wire.OK{}, nil
}

// handleSetSchedLog serves scontrol schedloglevel (REQUEST_SET_SCHEDLOG_LEVEL). Without a
// SlurmSchedLogFile Slurm answers that the operation is disabled; with one the request is
// refused by name: Orbit writes no scheduler log.
func (c *Controller) handleSetSchedLog(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, errEACCES()
	}
	if f, _ := c.config().Get("SlurmSchedLogFile"); f == "" {
		return nil, slurmErr(errnoDisabled)
	}
	return nil, wire.Errorf(wire.ErrnoSlurmError, "a scheduler log (SlurmSchedLogFile) is not supported by Orbit yet")
}
