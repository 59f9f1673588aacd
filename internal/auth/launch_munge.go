package auth

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"time"
)

// cred/munge: the launch credential's fields signed by munged instead of slurm.key, for sites
// whose slurm.conf says CredType=cred/munge (22.05's default) and that have no slurm.key.
// The wire form is the same fields as cred/slurm's under kind 'M', followed by a MUNGE
// credential whose payload is the SHA-256 of those fields. munged vouches for the uid that
// encoded it, so a node accepts only credentials encoded by a trusted uid (SlurmUser, root).
// Every node of a step decodes the same credential, often through the same munged (and an
// emulating slurmd hosts many nodes): a replay is expected and accepted.

// LaunchCredSigner signs launch credentials (the controller's side).
type LaunchCredSigner interface {
	SignLaunch(lc LaunchCred) ([]byte, error)
}

// LaunchCredVerifier checks a launch credential for one node (a node's side).
type LaunchCredVerifier interface {
	VerifyLaunch(cred []byte, node string) (LaunchCred, error)
}

var (
	_ LaunchCredSigner   = (*LaunchSigner)(nil)
	_ LaunchCredSigner   = (*MungeLaunchSigner)(nil)
	_ LaunchCredVerifier = (*LaunchVerifier)(nil)
	_ LaunchCredVerifier = (*MungeLaunchVerifier)(nil)
)

const mungeLaunchKind = 'M'

// MungeLaunchSigner signs launch credentials with munge.
type MungeLaunchSigner struct {
	Munge    *MungeSigner
	Lifetime time.Duration    // DefaultCredExpire unless set
	Now      func() time.Time // time.Now unless set
}

// SignLaunch signs lc. IssuedAt is stamped now; Expiry, when zero, is now + Lifetime.
func (s *MungeLaunchSigner) SignLaunch(lc LaunchCred) ([]byte, error) {
	if lc.NodeList == "" {
		return nil, fmt.Errorf("launch credential for job %d has an empty node list", lc.JobID)
	}
	now := nowFunc(s.Now)()
	lc.IssuedAt = now.Unix()
	if lc.Expiry == 0 {
		life := s.Lifetime
		if life <= 0 {
			life = DefaultCredExpire
		}
		lc.Expiry = now.Add(life).Unix()
	}
	body, err := lc.marshal()
	if err != nil {
		return nil, err
	}
	body[0] = mungeLaunchKind
	m, err := s.Munge.Sign(sha256.Sum256(body))
	if err != nil {
		return nil, err
	}
	return append(body, m...), nil
}

// MungeLaunchVerifier checks launch credentials signed by MungeLaunchSigner.
type MungeLaunchVerifier struct {
	Munge *MungeVerifier
	// Trusted are the uids whose credentials a node obeys: SlurmUser and root.
	Trusted []uint32
	Now     func() time.Time // time.Now unless set
	Skew    time.Duration    // DefaultSkew unless set
	InList  func(nodelist, node string) bool
}

// VerifyLaunch checks cred for node: munged's verdict and the encoding uid
// (ErrLaunchInvalid), the payload against the fields, expiry with skew (ErrLaunchExpired) and
// that node is in the credential's node list.
func (v *MungeLaunchVerifier) VerifyLaunch(cred []byte, node string) (LaunchCred, error) {
	body, tail, err := splitMungeLaunch(cred)
	if err != nil {
		return LaunchCred{}, err
	}
	payload, id, err := v.Munge.decode(tail)
	if err != nil && !errors.Is(err, ErrReplayed) {
		if errors.Is(err, ErrExpired) {
			return LaunchCred{}, fmt.Errorf("%w: %v", ErrLaunchExpired, err)
		}
		if errors.Is(err, ErrAgent) {
			return LaunchCred{}, err
		}
		return LaunchCred{}, fmt.Errorf("%w: %v", ErrLaunchInvalid, err)
	}
	digest := sha256.Sum256(body)
	if !bytes.Equal(payload, digest[:]) {
		return LaunchCred{}, fmt.Errorf("%w: munge payload does not match the credential", ErrLaunchInvalid)
	}
	if !slices.Contains(v.Trusted, id.UID) {
		return LaunchCred{}, fmt.Errorf("%w: credential encoded by uid %d, not SlurmUser or root", ErrLaunchInvalid, id.UID)
	}
	lc, err := decodeLaunchFields(body)
	if err != nil {
		return LaunchCred{}, err
	}
	skew := v.Skew
	if skew <= 0 {
		skew = DefaultSkew
	}
	now := nowFunc(v.Now)().Unix()
	if now-int64(skew/time.Second) > lc.Expiry {
		return LaunchCred{}, fmt.Errorf("%w: job %d expired %ds ago", ErrLaunchExpired, lc.JobID, now-lc.Expiry)
	}
	inList := v.InList
	if inList == nil {
		inList = HostInList
	}
	if !inList(lc.NodeList, node) {
		return LaunchCred{}, fmt.Errorf("%w: Host %s not in credential hostlist %s", ErrLaunchInvalid, node, lc.NodeList)
	}
	return lc, nil
}

// splitMungeLaunch separates the signed fields from the MUNGE credential that follows them.
func splitMungeLaunch(b []byte) (body, tail []byte, err error) {
	if len(b) < launchHeaderLen {
		return nil, nil, fmt.Errorf("%w: %d bytes, a launch credential has at least %d", ErrLaunchInvalid, len(b), launchHeaderLen)
	}
	if b[0] != mungeLaunchKind {
		return nil, nil, fmt.Errorf("%w: not a cred/munge launch credential (kind 0x%02x)", ErrLaunchInvalid, b[0])
	}
	n := launchHeaderLen + (int(b[34])<<8 | int(b[35]))
	if len(b) <= n {
		return nil, nil, fmt.Errorf("%w: no munge credential after the fields", ErrLaunchInvalid)
	}
	return b[:n], b[n:], nil
}

// decodeLaunchFields parses the fields of a cred/munge launch credential (no MAC follows).
func decodeLaunchFields(body []byte) (LaunchCred, error) {
	withMAC := make([]byte, len(body)+macLen)
	copy(withMAC, body)
	withMAC[0] = launchKind
	lc, _, err := decodeLaunch(withMAC)
	return lc, err
}

// LaunchSignerFor returns the controller's launch credential signer for credType
// (slurm.conf's CredType): cred/slurm signs with key, cred/munge with munged.
func LaunchSignerFor(credType string, key *Key, ai AuthInfo) (LaunchCredSigner, error) {
	switch credType {
	case "", CredTypeSlurm:
		if key == nil {
			return nil, fmt.Errorf("CredType=%s needs slurm.key", CredTypeSlurm)
		}
		s := NewLaunchSigner(key)
		if ai.CredExpire > 0 {
			s.Lifetime = ai.CredExpire
		}
		return s, nil
	case CredTypeMunge:
		return &MungeLaunchSigner{Munge: &MungeSigner{Socket: ai.Socket}, Lifetime: ai.CredExpire}, nil
	}
	return nil, fmt.Errorf("CredType=%s is not supported (use %s or %s)", credType, CredTypeSlurm, CredTypeMunge)
}

// LaunchVerifierFor returns a node's launch credential verifier for credType; trusted are
// the uids a cred/munge credential may come from (SlurmUser, root).
func LaunchVerifierFor(credType string, key *Key, ai AuthInfo, trusted []uint32) (LaunchCredVerifier, error) {
	switch credType {
	case "", CredTypeSlurm:
		if key == nil {
			return nil, fmt.Errorf("CredType=%s needs slurm.key", CredTypeSlurm)
		}
		return NewLaunchVerifier(key), nil
	case CredTypeMunge:
		return &MungeLaunchVerifier{Munge: &MungeVerifier{Socket: ai.Socket}, Trusted: trusted}, nil
	}
	return nil, fmt.Errorf("CredType=%s is not supported (use %s or %s)", credType, CredTypeSlurm, CredTypeMunge)
}
