package schedhost

import (
	"os"
	"path/filepath"
)

// sockDirPrefix names the directories made for plugin sockets.
const sockDirPrefix = "orbit-sched-"

// maxSockParent is the longest parent directory that still leaves room, within a Unix socket
// path's 108 bytes, for the socket directory and the name go-plugin gives its socket.
const maxSockParent = 60

// sockParent is where plugin socket directories are made: opts.SocketParent (the
// controller's StateSaveLocation, made as the controller makes it, since the plugin starts
// first) when it is short enough and usable, else the system's temporary directory.
func (o Options) sockParent() string {
	p := o.SocketParent
	if p == "" || len(p) > maxSockParent {
		return os.TempDir()
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return os.TempDir()
	}
	return p
}

// removeStaleSockDirs removes socket directories a killed controller left in its own
// SocketParent. Only that directory is swept: it belongs to one controller, where the
// temporary directory is shared.
func (o Options) removeStaleSockDirs() {
	p := o.sockParent()
	if p != o.SocketParent {
		return
	}
	old, _ := filepath.Glob(filepath.Join(p, sockDirPrefix+"*"))
	for _, d := range old {
		os.RemoveAll(d)
	}
}
