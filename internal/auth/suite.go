package auth

import (
	"fmt"
	"os"
)

// Suite is everything a daemon needs under slurm.conf's AuthType, CredType and AuthInfo: how
// it signs its own requests, how it verifies the requests it serves, and how launch
// credentials are signed (controller) or checked (node). Both daemons build it the same way,
// so a site's choice of auth/munge or auth/slurm means the same thing everywhere.
type Suite struct {
	AuthType, CredType string
	Info               AuthInfo
	// Key is slurm.key, loaded only when AuthType or CredType needs it.
	Key            *Key
	Signer         Signer
	Verifier       Verifier
	LaunchSigner   LaunchCredSigner
	LaunchVerifier LaunchCredVerifier
}

// NewSuite builds the Suite for authType/credType (slurm.conf's values; empty means Slurm's
// defaults, auth/munge and cred/munge). key is slurm.key when the caller has loaded it
// already (tests), else it is loaded from keyPath if a slurm type needs it. trusted are the
// uids a cred/munge launch credential may come from (SlurmUser, root).
func NewSuite(authType, credType, authInfo, keyPath string, key *Key, trusted []uint32) (*Suite, error) {
	if authType == "" {
		authType = AuthTypeMunge
	}
	if credType == "" {
		credType = CredTypeMunge
	}
	ai, err := ParseAuthInfo(authInfo)
	if err != nil {
		return nil, err
	}
	s := &Suite{AuthType: authType, CredType: credType, Info: ai, Key: key}
	if s.Key == nil && (authType == AuthTypeSlurm || credType == CredTypeSlurm) {
		if s.Key, err = LoadKey(keyPath); err != nil {
			return nil, err
		}
	}
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	switch authType {
	case AuthTypeSlurm:
		ks := NewKeySigner(s.Key, uid, gid)
		if ai.TTL > 0 {
			ks.TTL = ai.TTL
		}
		v := NewKeyVerifier(s.Key)
		if ai.TTL > v.MaxLifetime {
			v.MaxLifetime = ai.TTL
		}
		s.Signer, s.Verifier = ks, v
	case AuthTypeMunge:
		s.Signer = &MungeSigner{Socket: ai.Socket, TTL: ai.TTL}
		s.Verifier = &MungeVerifier{Socket: ai.Socket}
	default:
		return nil, fmt.Errorf("AuthType=%s is not supported (use %s or %s)", authType, AuthTypeSlurm, AuthTypeMunge)
	}
	if s.LaunchSigner, err = LaunchSignerFor(credType, s.Key, ai); err != nil {
		return nil, err
	}
	if s.LaunchVerifier, err = LaunchVerifierFor(credType, s.Key, ai, trusted); err != nil {
		return nil, err
	}
	return s, nil
}
