package wire

import (
	"log/slog"
	"time"
)

// Defaults for ServerOptions and ClientOptions; a zero field takes its default.
const (
	// DefaultMessageTimeout bounds one request/reply exchange, as slurm.conf's MessageTimeout
	// (whose default is also 10 s) does in Slurm.
	DefaultMessageTimeout = 10 * time.Second
	// DefaultIdleTimeout is how long a server keeps a connection open waiting for its next
	// request.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultProtoTimeout is how long a server waits for a new connection's protocol byte.
	DefaultProtoTimeout = 2 * time.Second
	// DefaultMaxConns bounds the connections a server handles at once.
	DefaultMaxConns = 256
)

// ServerOptions configure a Server. The zero value is usable.
type ServerOptions struct {
	// Logger receives the server's logs; nil means slog.Default().
	Logger *slog.Logger
	// MessageTimeout bounds reading the rest of a frame once its length has arrived, writing
	// a reply, and each handler's context.
	MessageTimeout time.Duration
	// IdleTimeout closes a connection that sends no new request for this long.
	IdleTimeout time.Duration
	// ProtoTimeout closes a new connection that does not send its protocol byte in time.
	ProtoTimeout time.Duration
	// MaxFrameSize bounds a request frame; a larger one drops the connection.
	MaxFrameSize uint32
	// MaxConns bounds the connections served at once. Further connections wait, unaccepted, in
	// the listener's kernel backlog (itself bounded), so no goroutine exists for them.
	MaxConns int
	// Authenticator verifies each request's credential before its handler runs; nil accepts
	// every request unauthenticated (Request.Identity stays nil).
	Authenticator Authenticator
	// Signer, if set, signs every reply body, as a Client's Signer signs requests.
	Signer Signer
}

func (o ServerOptions) withDefaults() ServerOptions {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MessageTimeout <= 0 {
		o.MessageTimeout = DefaultMessageTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.ProtoTimeout <= 0 {
		o.ProtoTimeout = DefaultProtoTimeout
	}
	if o.MaxFrameSize == 0 {
		o.MaxFrameSize = DefaultMaxFrameSize
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	return o
}

// ClientOptions configure a Client. The zero value is usable.
type ClientOptions struct {
	// MessageTimeout bounds dialing and each Call (write and reply together) unless the
	// Call's context has an earlier deadline.
	MessageTimeout time.Duration
	// MaxFrameSize bounds request and reply frames.
	MaxFrameSize uint32
	// Signer fills each request's credential; nil sends none.
	Signer Signer
}

func (o ClientOptions) withDefaults() ClientOptions {
	if o.MessageTimeout <= 0 {
		o.MessageTimeout = DefaultMessageTimeout
	}
	if o.MaxFrameSize == 0 {
		o.MaxFrameSize = DefaultMaxFrameSize
	}
	return o
}
