package auth

import (
	"encoding/binary"
	"fmt"
)

// Credential is what an auth credential asserts: who signed the message, from where, when,
// for how long, and for which message (PayloadDigest = sha256 of the request body).
type Credential struct {
	UID, GID      uint32
	Host          string
	IssuedAt      int64 // unix seconds
	Expiry        int64 // unix seconds; not valid after this (plus the verifier's skew)
	Nonce         [16]byte
	PayloadDigest [32]byte
	// Context says what the credential is for ("rpc", "launch", ...) so that one issued for
	// one purpose cannot be presented for another.
	Context string
}

// Wire layout of a signed auth credential, version 1 (all integers big-endian):
//
//	off  len  field
//	0    1    kind 'A'
//	1    1    version (1)
//	2    4    uid
//	6    4    gid
//	10   8    issued at (unix s)
//	18   8    expiry (unix s)
//	26   16   nonce
//	42   32   payload digest
//	74   1    host length h
//	75   1    context length c
//	76   h    host
//	76+h c    context
//	...  32   HMAC-SHA256(key, bytes 0 .. 76+h+c)
//
// The kind byte is under the MAC, so an auth credential can never be passed off as a launch
// credential or the other way round.
const (
	credKind       = 'A'
	credVersion    = 1
	credHeaderLen  = 76
	macLen         = 32
	maxShortString = 255
)

// MinCredentialLen is the size of a credential with empty host and context.
const MinCredentialLen = credHeaderLen + macLen

// marshal returns the unsigned body of c.
func (c *Credential) marshal() ([]byte, error) {
	if len(c.Host) > maxShortString {
		return nil, fmt.Errorf("credential host name is %d bytes, at most %d", len(c.Host), maxShortString)
	}
	if len(c.Context) > maxShortString {
		return nil, fmt.Errorf("credential context is %d bytes, at most %d", len(c.Context), maxShortString)
	}
	b := make([]byte, credHeaderLen, credHeaderLen+len(c.Host)+len(c.Context)+macLen)
	b[0] = credKind
	b[1] = credVersion
	binary.BigEndian.PutUint32(b[2:], c.UID)
	binary.BigEndian.PutUint32(b[6:], c.GID)
	binary.BigEndian.PutUint64(b[10:], uint64(c.IssuedAt))
	binary.BigEndian.PutUint64(b[18:], uint64(c.Expiry))
	copy(b[26:42], c.Nonce[:])
	copy(b[42:74], c.PayloadDigest[:])
	b[74] = byte(len(c.Host))
	b[75] = byte(len(c.Context))
	b = append(b, c.Host...)
	b = append(b, c.Context...)
	return b, nil
}

// sign returns the credential's bytes with its MAC under k.
func (c *Credential) sign(k *Key) ([]byte, error) {
	body, err := c.marshal()
	if err != nil {
		return nil, err
	}
	return append(body, k.mac(body)...), nil
}

// DecodeCredential parses a signed credential's fields WITHOUT checking its MAC: use a
// Verifier to trust one. It exists for logs, tools and tests. Any malformed input yields an
// error wrapping ErrUnpack.
func DecodeCredential(b []byte) (Credential, error) {
	c, _, err := decodeCredential(b)
	return c, err
}

// decodeCredential parses b and returns the credential and the length of the signed body
// (the MAC is b[bodyLen:]).
func decodeCredential(b []byte) (c Credential, bodyLen int, err error) {
	if len(b) < MinCredentialLen {
		return c, 0, fmt.Errorf("%w: %d bytes, a credential has at least %d", ErrUnpack, len(b), MinCredentialLen)
	}
	if b[0] != credKind {
		return c, 0, fmt.Errorf("%w: not an auth credential (kind 0x%02x)", ErrUnpack, b[0])
	}
	if b[1] != credVersion {
		return c, 0, fmt.Errorf("%w: unsupported credential version %d", ErrUnpack, b[1])
	}
	hl, cl := int(b[74]), int(b[75])
	bodyLen = credHeaderLen + hl + cl
	if len(b) != bodyLen+macLen {
		return c, 0, fmt.Errorf("%w: length %d does not match its fields (%d)", ErrUnpack, len(b), bodyLen+macLen)
	}
	c.UID = binary.BigEndian.Uint32(b[2:])
	c.GID = binary.BigEndian.Uint32(b[6:])
	c.IssuedAt = int64(binary.BigEndian.Uint64(b[10:]))
	c.Expiry = int64(binary.BigEndian.Uint64(b[18:]))
	copy(c.Nonce[:], b[26:42])
	copy(c.PayloadDigest[:], b[42:74])
	c.Host = string(b[credHeaderLen : credHeaderLen+hl])
	c.Context = string(b[credHeaderLen+hl : bodyLen])
	return c, bodyLen, nil
}
