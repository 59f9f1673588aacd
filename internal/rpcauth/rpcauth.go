// Package rpcauth joins the credentials of internal/auth to the transport of internal/wire:
// an Authenticator that every daemon's RPC server uses, so that each request is verified the
// same way (credential over the SHA-256 of the request body; forged, expired and replayed
// credentials refused). Signing needs no adapter: an auth.Signer is a wire.Signer.
//
// It may import internal/auth and internal/wire only.
package rpcauth

import (
	"context"
	"strings"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Authenticator verifies the credential of each request with V.
type Authenticator struct {
	V auth.Verifier
}

var _ wire.Authenticator = Authenticator{}

// Authenticate implements wire.Authenticator. A refusal is Slurm's
// SLURM_PROTOCOL_AUTHENTICATION_ERROR, whose text commands print; the reason is logged by the
// server (it is in the error's cause), not told to the caller.
func (a Authenticator) Authenticate(_ context.Context, req *wire.Request) (*wire.Identity, error) {
	id, err := a.V.Verify(req.Cred, wire.BodyDigest(req.RawBody))
	if err != nil {
		return nil, wire.NewError(wire.ErrnoAuthentication)
	}
	return &wire.Identity{UID: id.UID, GID: id.GID, Host: id.Host}, nil
}

// DefaultSocketPath is where a daemon serves the local auth socket unless AuthInfo's socket=
// names another path (Slurm's auth/slurm uses the same place for slurmd's socket).
const DefaultSocketPath = "/run/slurm/sack.socket"

// SocketPath returns the auth socket named by a socket= option in authInfo (slurm.conf's
// AuthInfo, comma-separated), or DefaultSocketPath.
func SocketPath(authInfo string) string {
	for _, opt := range strings.Split(authInfo, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(opt), "socket="); ok && v != "" {
			return v
		}
	}
	return DefaultSocketPath
}
