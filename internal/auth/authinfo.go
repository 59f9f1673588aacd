package auth

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// AuthInfo holds the AuthInfo options of slurm.conf that this package honours.
type AuthInfo struct {
	CredExpire time.Duration // cred_expire=: launch credential lifetime
	Socket     string        // socket=: munged's socket (auth/munge)
	TTL        time.Duration // ttl=: auth credential lifetime
}

// DefaultMungeSocket is munged's socket when AuthInfo names none.
const DefaultMungeSocket = "/var/run/munge/munge.socket.2"

// DefaultAuthInfo is what an absent AuthInfo means.
func DefaultAuthInfo() AuthInfo {
	return AuthInfo{CredExpire: DefaultCredExpire, Socket: DefaultMungeSocket, TTL: DefaultTTL}
}

// ParseAuthInfo parses an AuthInfo value: comma-separated key=value options (cred_expire,
// socket, ttl; times in seconds). Unknown options are an error naming them rather than
// silently ignored; options omitted keep their defaults.
func ParseAuthInfo(s string) (AuthInfo, error) {
	ai := DefaultAuthInfo()
	if strings.TrimSpace(s) == "" {
		return ai, nil
	}
	for _, opt := range strings.Split(s, ",") {
		opt = strings.TrimSpace(opt)
		if opt == "" {
			continue
		}
		k, v, hasVal := strings.Cut(opt, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		switch k {
		case "cred_expire", "ttl":
			if !hasVal || v == "" {
				return ai, fmt.Errorf("AuthInfo: %s needs a value in seconds", k)
			}
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n <= 0 {
				return ai, fmt.Errorf("AuthInfo: invalid %s value %q: want a positive number of seconds", k, v)
			}
			if k == "ttl" {
				ai.TTL = time.Duration(n) * time.Second
			} else {
				ai.CredExpire = time.Duration(n) * time.Second
			}
		case "socket":
			if !hasVal || v == "" {
				return ai, fmt.Errorf("AuthInfo: socket needs a path")
			}
			ai.Socket = v
		default:
			return ai, fmt.Errorf("AuthInfo: option %q is not supported", opt)
		}
	}
	return ai, nil
}
