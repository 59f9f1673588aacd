package auth

import (
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"time"
)

// Signer produces the credential a request carries, over sha256 of the request body.
type Signer interface {
	Sign(bodyDigest [32]byte) ([]byte, error)
}

// Verifier checks a request's credential against sha256 of the body it came with and says
// who sent it. A Verifier accepts each credential once: the transport must sign again when
// it retries a request.
type Verifier interface {
	Verify(cred []byte, bodyDigest [32]byte) (Identity, error)
}

// Authenticator is the name the transport uses for a Verifier.
type Authenticator = Verifier

// Identity is who a verified credential speaks for.
type Identity struct {
	UID, GID uint32
	Host     string // short host name of the signer
	Context  string
	IssuedAt int64 // unix seconds
	Expiry   int64 // unix seconds
}

// Credential contexts.
const (
	ContextRPC    = "rpc"
	ContextLaunch = "launch"
)

// DefaultTTL is a credential's lifetime when AuthInfo sets no ttl= (Slurm's auth/slurm
// DEFAULT_TTL).
const DefaultTTL = 60 * time.Second

// DefaultSkew is how far clocks of two hosts may disagree before credentials are refused.
const DefaultSkew = 5 * time.Second

// DefaultMaxLifetime caps the lifetime a verifier accepts, which also caps how long a nonce
// must be remembered.
const DefaultMaxLifetime = time.Hour

// DefaultMaxNonces bounds the replay cache (about 60 MB at most).
const DefaultMaxNonces = 1 << 20

// KeySigner signs credentials with the key itself. Daemons use it for their own requests
// and, through AuthServer, for local callers whose identity the kernel vouched for.
// Configure the exported fields before first use; do not change them afterwards.
type KeySigner struct {
	key      *Key
	UID, GID uint32
	Host     string
	Context  string           // ContextRPC unless set
	TTL      time.Duration    // DefaultTTL unless set
	Now      func() time.Time // time.Now unless set
}

// NewKeySigner returns a signer that signs as uid/gid from this host.
func NewKeySigner(key *Key, uid, gid uint32) *KeySigner {
	return &KeySigner{key: key, UID: uid, GID: gid, Host: ShortHostname(), Context: ContextRPC, TTL: DefaultTTL, Now: time.Now}
}

// Sign signs bodyDigest as the signer's own uid/gid.
func (s *KeySigner) Sign(bodyDigest [32]byte) ([]byte, error) {
	return s.SignFor(s.UID, s.GID, bodyDigest)
}

// SignFor signs bodyDigest as uid/gid. Only code that has established the caller's identity
// by other means (SO_PEERCRED) may call it for anyone but itself.
func (s *KeySigner) SignFor(uid, gid uint32, bodyDigest [32]byte) ([]byte, error) {
	if s == nil || s.key == nil {
		return nil, fmt.Errorf("%s: no key to sign with", pluginType)
	}
	now := nowFunc(s.Now)()
	ttl := s.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	ctx := s.Context
	if ctx == "" {
		ctx = ContextRPC
	}
	c := Credential{
		UID: uid, GID: gid, Host: s.Host, Context: ctx,
		IssuedAt:      now.Unix(),
		Expiry:        now.Add(ttl).Unix(),
		PayloadDigest: bodyDigest,
	}
	if _, err := rand.Read(c.Nonce[:]); err != nil {
		return nil, fmt.Errorf("%s: cannot draw nonce: %w", pluginType, err)
	}
	return c.sign(s.key)
}

// KeyVerifier verifies credentials signed with the key. It is safe for concurrent use.
// Configure the exported fields before first use.
type KeyVerifier struct {
	key         *Key
	Now         func() time.Time // time.Now unless set
	Skew        time.Duration    // DefaultSkew when zero; negative for none
	MaxLifetime time.Duration    // DefaultMaxLifetime unless set
	Context     string           // the context accepted; ContextRPC unless set
	replay      *replayCache
}

// NewKeyVerifier returns a verifier for ContextRPC credentials with a replay cache of
// DefaultMaxNonces entries.
func NewKeyVerifier(key *Key) *KeyVerifier {
	return &KeyVerifier{key: key, Now: time.Now, Skew: DefaultSkew, MaxLifetime: DefaultMaxLifetime,
		Context: ContextRPC, replay: newReplayCache(DefaultMaxNonces)}
}

// SetMaxNonces changes the replay cache bound (before first use).
func (v *KeyVerifier) SetMaxNonces(n int) { v.replay = newReplayCache(n) }

// ReplayCacheLen reports how many nonces the verifier currently remembers.
func (v *KeyVerifier) ReplayCacheLen() int { return v.replay.len() }

// Verify checks, in order: the bytes parse (ErrUnpack), the MAC (ErrForged, compared in
// constant time), the context and lifetime (ErrForged), expiry with Skew allowance
// (ErrExpired), the payload digest (ErrDigestMismatch) and finally that the nonce was not
// seen before (ErrReplayed). Only a credential that passes everything else is remembered,
// so garbage cannot fill the replay cache.
func (v *KeyVerifier) Verify(cred []byte, bodyDigest [32]byte) (Identity, error) {
	c, err := v.check(cred)
	if err != nil {
		return Identity{}, err
	}
	if c.PayloadDigest != bodyDigest {
		return Identity{}, ErrDigestMismatch
	}
	if err := v.replay.remember(c.Nonce, c.Expiry+int64(v.skew()/time.Second), nowFunc(v.Now)().Unix()); err != nil {
		return Identity{}, err
	}
	return Identity{UID: c.UID, GID: c.GID, Host: c.Host, Context: c.Context, IssuedAt: c.IssuedAt, Expiry: c.Expiry}, nil
}

// check verifies everything but the digest and replay.
func (v *KeyVerifier) check(cred []byte) (Credential, error) {
	c, bodyLen, err := decodeCredential(cred)
	if err != nil {
		return c, err
	}
	if !v.key.macEqual(cred[:bodyLen], cred[bodyLen:]) {
		return c, ErrForged
	}
	want := v.Context
	if want == "" {
		want = ContextRPC
	}
	if c.Context != want {
		return c, fmt.Errorf("%w: issued for context %q, not %q", ErrForged, c.Context, want)
	}
	now := nowFunc(v.Now)().Unix()
	skew := int64(v.skew() / time.Second)
	maxLife := v.MaxLifetime
	if maxLife <= 0 {
		maxLife = DefaultMaxLifetime
	}
	// IssuedAt >= 0 and Expiry >= IssuedAt keep the subtraction from overflowing.
	if c.IssuedAt < 0 || c.Expiry < c.IssuedAt || c.Expiry-c.IssuedAt > int64(maxLife/time.Second) {
		return c, fmt.Errorf("%w: lifetime %ds outside 0..%ds", ErrForged, c.Expiry-c.IssuedAt, int64(maxLife/time.Second))
	}
	if c.IssuedAt > now+skew {
		return c, fmt.Errorf("%w: issued %ds in the future by %s; check clock synchronisation", ErrForged, c.IssuedAt-now, c.Host)
	}
	if now-skew > c.Expiry {
		return c, fmt.Errorf("%w: expired %ds ago (issued by %s)", ErrExpired, now-c.Expiry, c.Host)
	}
	return c, nil
}

func (v *KeyVerifier) skew() time.Duration {
	if v.Skew < 0 {
		return 0
	}
	if v.Skew == 0 {
		return DefaultSkew
	}
	return v.Skew
}

func nowFunc(f func() time.Time) func() time.Time {
	if f == nil {
		return time.Now
	}
	return f
}

// ShortHostname is this host's name up to the first dot, as Slurm records it in
// credentials; "localhost" if the kernel will not say.
func ShortHostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	if i := strings.IndexByte(h, '.'); i > 0 {
		h = h[:i]
	}
	return h
}
