package auth

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// LaunchCred is the controller's permission for a node to run a job step: which job and
// step, as whom, on which nodes, until when.
type LaunchCred struct {
	JobID, StepID uint32
	UID, GID      uint32
	NodeList      string // hostlist expression, e.g. "node[1-4]"
	IssuedAt      int64  // unix seconds
	Expiry        int64  // unix seconds
}

// DefaultCredExpire is a launch credential's lifetime when AuthInfo sets no cred_expire=
// (Slurm's default, 120 s).
const DefaultCredExpire = 120 * time.Second

// Wire layout of a signed launch credential, version 1 (big-endian):
//
//	0 kind 'L' | 1 version | 2 job id u32 | 6 step id u32 | 10 uid u32 | 14 gid u32 |
//	18 issued i64 | 26 expiry i64 | 34 node list length u16 | 36 node list |
//	HMAC-SHA256 over everything before it
const (
	launchKind      = 'L'
	launchVersion   = 1
	launchHeaderLen = 36
	maxNodeListLen  = 1<<16 - 1
)

// MinLaunchCredLen is the size of a launch credential with an empty node list.
const MinLaunchCredLen = launchHeaderLen + macLen

func (lc *LaunchCred) marshal() ([]byte, error) {
	if len(lc.NodeList) > maxNodeListLen {
		return nil, fmt.Errorf("launch credential node list is %d bytes, at most %d", len(lc.NodeList), maxNodeListLen)
	}
	b := make([]byte, launchHeaderLen, launchHeaderLen+len(lc.NodeList)+macLen)
	b[0] = launchKind
	b[1] = launchVersion
	binary.BigEndian.PutUint32(b[2:], lc.JobID)
	binary.BigEndian.PutUint32(b[6:], lc.StepID)
	binary.BigEndian.PutUint32(b[10:], lc.UID)
	binary.BigEndian.PutUint32(b[14:], lc.GID)
	binary.BigEndian.PutUint64(b[18:], uint64(lc.IssuedAt))
	binary.BigEndian.PutUint64(b[26:], uint64(lc.Expiry))
	binary.BigEndian.PutUint16(b[34:], uint16(len(lc.NodeList)))
	return append(b, lc.NodeList...), nil
}

// DecodeLaunchCred parses a launch credential WITHOUT checking its MAC (for logs, tools and
// tests). Malformed input yields an error wrapping ErrLaunchInvalid.
func DecodeLaunchCred(b []byte) (LaunchCred, error) {
	lc, _, err := decodeLaunch(b)
	return lc, err
}

func decodeLaunch(b []byte) (lc LaunchCred, bodyLen int, err error) {
	if len(b) < MinLaunchCredLen {
		return lc, 0, fmt.Errorf("%w: %d bytes, a launch credential has at least %d", ErrLaunchInvalid, len(b), MinLaunchCredLen)
	}
	if b[0] != launchKind {
		return lc, 0, fmt.Errorf("%w: not a launch credential (kind 0x%02x)", ErrLaunchInvalid, b[0])
	}
	if b[1] != launchVersion {
		return lc, 0, fmt.Errorf("%w: unsupported launch credential version %d", ErrLaunchInvalid, b[1])
	}
	bodyLen = launchHeaderLen + int(binary.BigEndian.Uint16(b[34:]))
	if len(b) != bodyLen+macLen {
		return lc, 0, fmt.Errorf("%w: length %d does not match its fields (%d)", ErrLaunchInvalid, len(b), bodyLen+macLen)
	}
	lc.JobID = binary.BigEndian.Uint32(b[2:])
	lc.StepID = binary.BigEndian.Uint32(b[6:])
	lc.UID = binary.BigEndian.Uint32(b[10:])
	lc.GID = binary.BigEndian.Uint32(b[14:])
	lc.IssuedAt = int64(binary.BigEndian.Uint64(b[18:]))
	lc.Expiry = int64(binary.BigEndian.Uint64(b[26:]))
	lc.NodeList = string(b[launchHeaderLen:bodyLen])
	return lc, bodyLen, nil
}

// LaunchSigner is the controller's side: it signs launch credentials with the key.
type LaunchSigner struct {
	key      *Key
	Lifetime time.Duration    // DefaultCredExpire unless set
	Now      func() time.Time // time.Now unless set
}

// NewLaunchSigner returns a LaunchSigner with the default lifetime.
func NewLaunchSigner(key *Key) *LaunchSigner {
	return &LaunchSigner{key: key, Lifetime: DefaultCredExpire, Now: time.Now}
}

// SignLaunch signs lc. IssuedAt is stamped now; Expiry, when zero, is now + Lifetime.
func (s *LaunchSigner) SignLaunch(lc LaunchCred) ([]byte, error) {
	if s == nil || s.key == nil {
		return nil, fmt.Errorf("%s: no key to sign launch credential with", pluginType)
	}
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
	return append(body, s.key.mac(body)...), nil
}

// LaunchVerifier is a node's side: it accepts only launch credentials signed with the key,
// not expired, that name the node.
type LaunchVerifier struct {
	key  *Key
	Now  func() time.Time // time.Now unless set
	Skew time.Duration    // DefaultSkew unless set
	// InList reports whether node is in the hostlist expression nodelist; HostInList unless
	// set. A malformed expression must count as "not in list".
	InList func(nodelist, node string) bool
}

// NewLaunchVerifier returns a LaunchVerifier using HostInList.
func NewLaunchVerifier(key *Key) *LaunchVerifier {
	return &LaunchVerifier{key: key, Now: time.Now, Skew: DefaultSkew, InList: HostInList}
}

// VerifyLaunch checks cred for node: the MAC (ErrLaunchInvalid), expiry with skew
// (ErrLaunchExpired) and that node is in the credential's node list (ErrLaunchInvalid, with
// Slurm's "Host %s not in credential hostlist %s" detail). A launch credential is not
// single-use: every node of the step verifies the same bytes, and a launch may be resent.
func (v *LaunchVerifier) VerifyLaunch(cred []byte, node string) (LaunchCred, error) {
	lc, bodyLen, err := decodeLaunch(cred)
	if err != nil {
		return LaunchCred{}, err
	}
	if !v.key.macEqual(cred[:bodyLen], cred[bodyLen:]) {
		return LaunchCred{}, fmt.Errorf("%w: signature check failed", ErrLaunchInvalid)
	}
	skew := v.Skew
	if skew <= 0 {
		skew = DefaultSkew
	}
	now := nowFunc(v.Now)().Unix()
	if now-int64(skew/time.Second) > lc.Expiry { // not Expiry+skew: that could overflow
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

// HostInList reports whether node is one of the hosts of the hostlist expression nodelist;
// false when the expression does not parse.
func HostInList(nodelist, node string) bool {
	hosts, err := hostlist.Expand(nodelist)
	if err != nil {
		return false
	}
	return slices.Contains(hosts, node)
}
