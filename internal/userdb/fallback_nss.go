//go:build osusergo || !cgo

package userdb

// nssFallback: os/user reads only /etc/passwd and /etc/group in this build, so a miss asks
// getent, which goes through libc's NSS as a cgo build's os/user would.
const nssFallback = true
