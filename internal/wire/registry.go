package wire

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// MsgType numbers a message kind on the wire. The numbers live in msg_types.go.
type MsgType uint16

// ErrUnknownMsgType reports a message type number nobody registered.
var ErrUnknownMsgType = errors.New("wire: unknown message type")

type msgEntry struct {
	t      MsgType
	name   string
	newFn  func() any
	goType reflect.Type // the pointer type newFn returns
}

// registry maps numbers to message constructors. Register, called from init functions, only
// queues an entry; the maps are built (and the entries checked) on the first lookup. Every
// command links every message family, and building the maps at init cost each start of a
// command a good part of its package-init time. The lock keeps the race detector honest.
var registry struct {
	sync.RWMutex
	pending  []msgEntry // registered, not yet in the maps
	byType   map[MsgType]msgEntry
	byName   map[string]MsgType
	byGoType map[reflect.Type]MsgType
}

// Register binds message type t to name and to newFn, which must return a pointer to a fresh
// zero struct each time. It is meant for init functions in msg_<family>.go files and panics on
// a programming error: type 0, an empty name, a number, name or Go type already registered, or
// a constructor that does not return a pointer to a struct. The first two panic at once, the
// others when the registry is indexed: at the first lookup for a registration from an init
// function (TestRegistry_Lookups makes one in every test run), at once after that.
func Register(t MsgType, name string, newFn func() any) {
	if t == 0 {
		panic("wire.Register: message type 0 is reserved")
	}
	if name == "" || newFn == nil {
		panic(fmt.Sprintf("wire.Register: type %d needs a name and a constructor", t))
	}
	registry.Lock()
	registry.pending = append(registry.pending, msgEntry{t: t, name: name, newFn: newFn})
	indexed := registry.byType != nil
	registry.Unlock()
	if indexed {
		indexPending()
	}
}

// indexPending adds the pending entries to the maps. A bad entry is dropped before it
// panics, so the registry stays usable for the entries that are right.
func indexPending() {
	registry.Lock()
	defer registry.Unlock()
	if registry.byType == nil {
		n := len(registry.pending)
		registry.byType = make(map[MsgType]msgEntry, n)
		registry.byName = make(map[string]MsgType, n)
		registry.byGoType = make(map[reflect.Type]MsgType, n)
	}
	for len(registry.pending) > 0 {
		e := registry.pending[0]
		registry.pending = registry.pending[1:]
		v := e.newFn()
		rt := reflect.TypeOf(v)
		if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
			panic(fmt.Sprintf("wire.Register: %s (%d): constructor returns %T, want a pointer to a struct", e.name, e.t, v))
		}
		if old, dup := registry.byType[e.t]; dup {
			panic(fmt.Sprintf("wire.Register: type %d registered twice (%s and %s)", e.t, old.name, e.name))
		}
		if old, dup := registry.byName[e.name]; dup {
			panic(fmt.Sprintf("wire.Register: name %s registered twice (types %d and %d)", e.name, old, e.t))
		}
		if old, dup := registry.byGoType[rt]; dup {
			panic(fmt.Sprintf("wire.Register: Go type %v registered twice (types %d and %d)", rt, old, e.t))
		}
		e.goType = rt
		registry.byType[e.t] = e
		registry.byName[e.name] = e.t
		registry.byGoType[rt] = e.t
	}
	registry.pending = nil
}

// readLock takes the read lock with every registered entry in the maps.
func readLock() {
	registry.RLock()
	if len(registry.pending) == 0 && registry.byType != nil {
		return
	}
	registry.RUnlock()
	indexPending()
	registry.RLock()
}

// New returns a fresh zero value (a pointer) of the message registered as t.
func New(t MsgType) (any, error) {
	readLock()
	e, ok := registry.byType[t]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %d", ErrUnknownMsgType, uint16(t))
	}
	return e.newFn(), nil
}

// Name returns the registered name of t, or "MsgType(N)" for an unknown number.
func Name(t MsgType) string {
	readLock()
	e, ok := registry.byType[t]
	registry.RUnlock()
	if !ok {
		return fmt.Sprintf("MsgType(%d)", uint16(t))
	}
	return e.name
}

// String returns Name(t), for logs.
func (t MsgType) String() string { return Name(t) }

// TypeOf returns the message type registered for v's Go type (a pointer to a message struct).
func TypeOf(v any) (MsgType, bool) {
	rt := reflect.TypeOf(v)
	readLock()
	t, ok := registry.byGoType[rt]
	registry.RUnlock()
	return t, ok
}

// Registered returns every registered message type in increasing order.
func Registered() []MsgType {
	readLock()
	out := make([]MsgType, 0, len(registry.byType))
	for t := range registry.byType {
		out = append(out, t)
	}
	registry.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
