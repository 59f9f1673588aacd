package wire

import (
	"net"
	"time"
)

// Proto is the first byte of every connection: it says what the rest of the connection
// carries, so several protocols can share one listening port.
type Proto byte

// Connection protocols. Like message types, values are only ever appended.
const (
	// ProtoRPC carries request/reply frames (Client and Server).
	ProtoRPC Proto = 0x01
	// ProtoStream carries raw srun↔slurmstepd task I/O.
	ProtoStream Proto = 0x02
	// ProtoRelay carries satellite relay traffic.
	ProtoRelay Proto = 0x03
)

// ConnHandler takes over a connection whose protocol byte has been read. Its deadlines are
// cleared: the handler sets its own. The server closes the connection when the handler
// returns and on Close, so a handler must return once its reads or writes fail.
type ConnHandler func(c net.Conn)

// PeerCred is the identity the kernel reports for the process at the other end of a Unix
// socket (SO_PEERCRED). The auth package trusts it to sign credentials for local callers.
type PeerCred struct {
	UID uint32
	GID uint32
	PID int32
}

// writeProto sends the protocol byte that opens a client connection.
func writeProto(c net.Conn, p Proto, timeout time.Duration) error {
	if err := c.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	_, err := c.Write([]byte{byte(p)})
	return err
}
