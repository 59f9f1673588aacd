//go:build cgo && !osusergo

package userdb

// nssFallback: os/user calls libc's getpwnam_r and friends in this build, which already go
// through NSS; a miss there is a miss everywhere.
const nssFallback = false
