package wire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"reflect"
	"sync"
	"time"
)

// Signer produces the credential of an outgoing message over the digest of its body. The auth
// package implements it (auth/slurm HMAC credentials, munge).
type Signer interface {
	Sign(bodyDigest [32]byte) ([]byte, error)
}

// Client is one RPC connection. Calls on it are serialized: a connection carries one request
// at a time, in order. A transport failure (timeout, closed or garbled connection) breaks the
// client for good, since the stream's position is then unknown; dial again. Whether to retry
// the failed call is the caller's choice and only safe for idempotent requests.
type Client struct {
	opts ClientOptions

	mu     sync.Mutex
	conn   net.Conn
	rd     *bufio.Reader
	nextID uint64
	broken error // sticky transport failure
}

// Dial connects to addr ("tcp", "unix") and announces an RPC connection. A dial failure is an
// *Error with SLURM_COMMUNICATIONS_CONNECTION_ERROR wrapping the cause.
func Dial(ctx context.Context, network, addr string, opts ClientOptions) (*Client, error) {
	opts = opts.withDefaults()
	dctx, cancel := context.WithTimeout(ctx, opts.MessageTimeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(dctx, network, addr)
	if err != nil {
		return nil, transportError(ErrnoConnection, err)
	}
	if err := writeProto(conn, ProtoRPC, opts.MessageTimeout); err != nil {
		conn.Close()
		return nil, transportError(ErrnoConnection, err)
	}
	return &Client{opts: opts, conn: conn, rd: bufio.NewReader(conn)}, nil
}

// Close closes the connection.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		c.broken = transportError(ErrnoShutdown, net.ErrClosed)
	}
	return c.conn.Close()
}

// Call sends req (a pointer to the struct registered as reqType) and decodes the reply into
// resp, a pointer to a fresh zero value of the expected reply struct, or nil when the expected
// reply is MsgOK. The exchange must finish by ctx's deadline and within MessageTimeout.
//
// An error reply from the peer comes back as an *Error with the peer's errno and text. Local
// failures are *Error values too (SLURM_COMMUNICATIONS_SEND_ERROR, ..._RECEIVE_ERROR,
// SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT) that wrap their cause, so errors.Is(err,
// context.DeadlineExceeded) and the like work.
func (c *Client) Call(ctx context.Context, reqType MsgType, req any, resp any) error {
	if t, ok := TypeOf(req); !ok || t != reqType {
		return fmt.Errorf("wire: Call(%s): request is a %T, not the type registered for it", reqType, req)
	}
	want := MsgOK
	if resp != nil {
		t, ok := TypeOf(resp)
		if !ok {
			return fmt.Errorf("wire: Call(%s): reply target %T is not a registered message", reqType, resp)
		}
		if reflect.ValueOf(resp).IsNil() || !reflect.ValueOf(resp).Elem().IsZero() {
			return fmt.Errorf("wire: Call(%s): %w", reqType, ErrNotFresh)
		}
		want = t
	}
	body, err := Marshal(req)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return transportError(ErrnoSend, err) // nothing sent; the connection stays usable
	}
	env := &Envelope{Version: ProtocolVersion, Type: reqType, Body: body}
	if c.opts.Signer != nil {
		if env.Cred, err = c.opts.Signer.Sign(BodyDigest(body)); err != nil {
			return transportError(ErrnoAuthentication, err)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return c.broken
	}
	c.nextID++
	env.ReqID = c.nextID
	frame, err := EncodeFrame(env)
	if err != nil || uint64(len(frame)-frameHeaderLen) > uint64(c.opts.MaxFrameSize) {
		return transportError(ErrnoInsaneMsgLength, fmt.Errorf("%w: request of %d bytes, limit %d", ErrFrameTooLarge, len(frame)-frameHeaderLen, c.opts.MaxFrameSize))
	}

	deadline := time.Now().Add(c.opts.MessageTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return c.fail(ctx, ErrnoSend, err)
	}
	// A cancelled context interrupts a blocked read or write at once.
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	if _, err := c.conn.Write(frame); err != nil {
		return c.fail(ctx, ErrnoSend, err)
	}
	rep, err := ReadFrame(c.rd, c.opts.MaxFrameSize)
	if err != nil {
		return c.fail(ctx, ErrnoReceive, err)
	}
	if rep.ReqID != env.ReqID {
		return c.fail(ctx, ErrnoUnexpectedMsg, fmt.Errorf("reply to request %d, want %d", rep.ReqID, env.ReqID))
	}
	if rep.Type == MsgError {
		e := new(Error)
		if err := Unmarshal(rep.Body, e); err != nil {
			return transportError(ErrnoReceive, err)
		}
		return e
	}
	if rep.Type != want {
		return transportError(ErrnoUnexpectedMsg, fmt.Errorf("reply is %s, want %s", rep.Type, want))
	}
	if resp == nil {
		return nil
	}
	if err := unmarshalOwned(rep.Body, resp); err != nil { // the frame is ours alone
		return transportError(ErrnoReceive, err)
	}
	return nil
}

// fail breaks the client after a transport failure and returns the error describing it.
func (c *Client) fail(ctx context.Context, errno int32, err error) error {
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			errno = ErrnoSocketTimeout
		}
	case errors.Is(err, os.ErrDeadlineExceeded):
		errno = ErrnoSocketTimeout
	}
	c.broken = transportError(errno, err)
	c.conn.Close()
	return c.broken
}

// Call dials addr, makes one call and closes the connection; see Client.Call.
func Call(ctx context.Context, network, addr string, reqType MsgType, req, resp any, opts ClientOptions) error {
	c, err := Dial(ctx, network, addr, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Call(ctx, reqType, req, resp)
}
