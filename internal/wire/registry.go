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
	name   string
	newFn  func() any
	goType reflect.Type // the pointer type newFn returns
}

// registry maps numbers to message constructors. It is written only by Register, from init
// functions, and read everywhere after; the lock keeps the race detector honest.
var registry = struct {
	sync.RWMutex
	byType   map[MsgType]msgEntry
	byName   map[string]MsgType
	byGoType map[reflect.Type]MsgType
}{
	byType:   map[MsgType]msgEntry{},
	byName:   map[string]MsgType{},
	byGoType: map[reflect.Type]MsgType{},
}

// Register binds message type t to name and to newFn, which must return a pointer to a fresh
// zero struct each time. It is meant for init functions in msg_<family>.go files and panics on
// a programming error: type 0, an empty name, a number, name or Go type already registered, or
// a constructor that does not return a pointer to a struct.
func Register(t MsgType, name string, newFn func() any) {
	if t == 0 {
		panic("wire.Register: message type 0 is reserved")
	}
	if name == "" || newFn == nil {
		panic(fmt.Sprintf("wire.Register: type %d needs a name and a constructor", t))
	}
	v := newFn()
	rt := reflect.TypeOf(v)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("wire.Register: %s (%d): constructor returns %T, want a pointer to a struct", name, t, v))
	}
	registry.Lock()
	defer registry.Unlock()
	if old, dup := registry.byType[t]; dup {
		panic(fmt.Sprintf("wire.Register: type %d registered twice (%s and %s)", t, old.name, name))
	}
	if old, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("wire.Register: name %s registered twice (types %d and %d)", name, old, t))
	}
	if old, dup := registry.byGoType[rt]; dup {
		panic(fmt.Sprintf("wire.Register: Go type %v registered twice (types %d and %d)", rt, old, t))
	}
	registry.byType[t] = msgEntry{name: name, newFn: newFn, goType: rt}
	registry.byName[name] = t
	registry.byGoType[rt] = t
}

// New returns a fresh zero value (a pointer) of the message registered as t.
func New(t MsgType) (any, error) {
	registry.RLock()
	e, ok := registry.byType[t]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %d", ErrUnknownMsgType, uint16(t))
	}
	return e.newFn(), nil
}

// Name returns the registered name of t, or "MsgType(N)" for an unknown number.
func Name(t MsgType) string {
	registry.RLock()
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
	registry.RLock()
	t, ok := registry.byGoType[rt]
	registry.RUnlock()
	return t, ok
}

// Registered returns every registered message type in increasing order.
func Registered() []MsgType {
	registry.RLock()
	out := make([]MsgType, 0, len(registry.byType))
	for t := range registry.byType {
		out = append(out, t)
	}
	registry.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
