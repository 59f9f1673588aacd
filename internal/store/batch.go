package store

import (
	"fmt"
	"strings"
)

// opKind is what one mutation of a Batch does.
type opKind uint8

const (
	opPut opKind = iota + 1
	opDelete
	opSetCounter
	opAppendAccounting
)

// op is one mutation. Which fields matter depends on kind.
type op struct {
	kind  opKind
	rkind string // record or accounting kind; counter name for opSetCounter
	key   string
	value []byte
	n     int64 // counter value, or accounting time
	uid   any   // accounting row's user id (int64), nil = not given (NULL; AppendAccountingUID)
}

// Batch is a list of mutations committed atomically: after a crash either all of them are in
// the state file or none is. Build it with Put, Delete, SetCounter and AppendAccounting, then
// hand it to Commit. A Batch must not be changed after it is handed to Commit or Enqueue.
//
// Invalid arguments (an empty kind, key or counter name; a NUL byte in one) are remembered,
// and Commit refuses the whole batch with that error before it reaches the writer, so an
// invalid batch never shares a transaction with valid ones.
type Batch struct {
	ops []op
	err error
}

// Put sets the record (kind, key) to value, replacing any previous value. value is copied, so
// the caller may reuse its buffer.
func (b *Batch) Put(kind, key string, value []byte) {
	b.check("kind", kind)
	b.check("key", key)
	b.ops = append(b.ops, op{kind: opPut, rkind: kind, key: key, value: append([]byte{}, value...)})
}

// Delete removes the record (kind, key). Deleting a record that does not exist is not an error.
func (b *Batch) Delete(kind, key string) {
	b.check("kind", kind)
	b.check("key", key)
	b.ops = append(b.ops, op{kind: opDelete, rkind: kind, key: key})
}

// SetCounter sets the counter name (for example the next job id) to value.
func (b *Batch) SetCounter(name string, value int64) {
	b.check("counter name", name)
	b.ops = append(b.ops, op{kind: opSetCounter, rkind: name, n: value})
}

// AppendAccounting appends a row to the accounting table (a finished job, for sacct). time is
// the caller's timestamp (Unix seconds by convention); rows are never updated or removed.
// value is copied.
func (b *Batch) AppendAccounting(kind, key string, time int64, value []byte) {
	b.check("kind", kind)
	b.check("key", key)
	b.ops = append(b.ops, op{kind: opAppendAccounting, rkind: kind, key: key, n: time, value: append([]byte{}, value...)})
}

// Len is the number of mutations in the batch.
func (b *Batch) Len() int { return len(b.ops) }

// Err is the first invalid argument given to the batch, or nil.
func (b *Batch) Err() error { return b.err }

func (b *Batch) check(what, s string) {
	if b.err != nil {
		return
	}
	switch {
	case s == "":
		b.err = fmt.Errorf("store: mutation %d: empty %s", len(b.ops)+1, what)
	case strings.IndexByte(s, 0) >= 0:
		b.err = fmt.Errorf("store: mutation %d: %s %q contains a NUL byte", len(b.ops)+1, what, s)
	}
}
