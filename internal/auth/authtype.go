package auth

import (
	"fmt"
	"os"
)

// AuthType values this package implements.
const (
	AuthTypeSlurm = "auth/slurm"
	AuthTypeMunge = "auth/munge"
)

// CredType values (slurm.conf's CredType: who signs launch credentials).
const (
	CredTypeSlurm = "cred/slurm"
	CredTypeMunge = "cred/munge"
)

// SignerFor returns the Signer a process uses under authType. For auth/slurm that is
// NewSigner(keyPath, socketPath) with AuthInfo's ttl; for auth/munge, munge on AuthInfo's
// socket. Any other AuthType is an error naming it.
func SignerFor(authType, keyPath, socketPath string, ai AuthInfo) (Signer, error) {
	switch authType {
	case AuthTypeSlurm:
		s, err := NewSigner(keyPath, socketPath)
		if ks, ok := s.(*KeySigner); ok && ai.TTL > 0 {
			ks.TTL = ai.TTL
		}
		return s, err
	case AuthTypeMunge:
		return &MungeSigner{Socket: ai.Socket, TTL: ai.TTL}, nil
	}
	return nil, fmt.Errorf("AuthType=%s is not supported (use %s or %s)", authType, AuthTypeSlurm, AuthTypeMunge)
}

// VerifierFor returns the Verifier a daemon uses under authType. auth/slurm loads the key at
// keyPath (and so needs to be able to read it); auth/munge asks munged.
func VerifierFor(authType, keyPath string, ai AuthInfo) (Verifier, error) {
	switch authType {
	case AuthTypeSlurm:
		key, err := LoadKey(keyPath)
		if err != nil {
			return nil, err
		}
		v := NewKeyVerifier(key)
		// A site may configure credentials longer-lived than the default cap.
		if ai.TTL > v.MaxLifetime {
			v.MaxLifetime = ai.TTL
		}
		return v, nil
	case AuthTypeMunge:
		return &MungeVerifier{Socket: ai.Socket}, nil
	}
	return nil, fmt.Errorf("AuthType=%s is not supported (use %s or %s)", authType, AuthTypeSlurm, AuthTypeMunge)
}

// Compile-time checks that each implementation satisfies the transport's contract.
var (
	_ Signer   = (*KeySigner)(nil)
	_ Signer   = (*SocketSigner)(nil)
	_ Signer   = (*MungeSigner)(nil)
	_ Verifier = (*KeyVerifier)(nil)
	_ Verifier = (*MungeVerifier)(nil)
)

// processIdentity is this process's uid and gid as credentials record them.
func processIdentity() (uint32, uint32) { return uint32(os.Getuid()), uint32(os.Getgid()) }
