package wire

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerCred returns the kernel's word on who is at the other end of a Unix socket
// (SO_PEERCRED), or nil for other kinds of connection.
func peerCred(c net.Conn) (*PeerCred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("wire: peer credentials: %w", err)
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, fmt.Errorf("wire: peer credentials: %w", err)
	}
	if serr != nil {
		return nil, fmt.Errorf("wire: peer credentials: SO_PEERCRED: %w", serr)
	}
	return &PeerCred{UID: cred.Uid, GID: cred.Gid, PID: cred.Pid}, nil
}
