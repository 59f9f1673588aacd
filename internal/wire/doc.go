// Package wire owns Orbit's wire protocol: the msgpack codec every daemon and command shares,
// the registry of message types, length-prefixed frames and their envelope, and connection
// handling (the first-byte protocol mux, the RPC server and client, deadlines, peer
// credentials on Unix sockets).
//
// Orbit daemons speak this protocol among themselves; it is not Slurm's wire format (DESIGN.md
// §1: compatible at the surface, not on the wire).
//
// A connection starts with one byte naming what it carries (ProtoRPC, ProtoStream,
// ProtoRelay). An RPC connection then carries frames: a 4-byte big-endian length followed by
// a msgpack Envelope whose Body is the msgpack encoding of one registered message. A
// connection may carry several requests one after another; each reply echoes its request's
// ReqID.
//
// Message families live one per file (msg_transport.go, later msg_job_submit.go, ...); their
// numbers all live in msg_types.go and are only ever appended.
//
// Retries are the caller's business and only safe for idempotent requests (a ping, a query):
// a Call that fails on the transport may or may not have been applied by the peer.
//
// This package must not import conf/, compat/ or any daemon or command package: it sits
// below all of them.
package wire
