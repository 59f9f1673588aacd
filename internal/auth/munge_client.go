package auth

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// munged's client protocol, spoken over its Unix socket as libmunge does (MUNGE's
// src/libcommon/m_msg.c): every message is an 11-byte header (magic, version, type, retry
// count, body length; integers big-endian) and a body whose layout the type fixes. munged
// learns the caller's uid and gid from the socket (SO_PEERCRED), so nothing else is needed to
// authenticate. Talking to the socket directly saves a fork and exec of munge or unmunge per
// RPC, which under auth/munge was most of a small query's time.

const (
	mungeMsgMagic   = 0x00606D4B
	mungeMsgVersion = 4
	mungeHdrLen     = 11

	mungeMsgEncReq = 2
	mungeMsgEncRsp = 3
	mungeMsgDecReq = 4
	mungeMsgDecRsp = 5

	mungeDefault = 1          // MUNGE_CIPHER_DEFAULT, MUNGE_MAC_DEFAULT, MUNGE_ZIP_DEFAULT
	mungeAnyID   = 0xffffffff // MUNGE_UID_ANY, MUNGE_GID_ANY: any user may decode

	// mungeMaxReply bounds a reply body: credentials carry a 32-byte digest, so anything
	// near this is not munged.
	mungeMaxReply = 1 << 20
)

// errMungeProtocol reports a reply that is not munged's protocol.
var errMungeProtocol = errors.New("auth/munge: malformed reply from munged")

// mungeReply is what munged answers: its verdict and, for a decode, the credential's data.
type mungeReply struct {
	errNum  uint8
	errText string
	ttl     uint32
	addr    []byte
	encoded uint32 // time0: when the credential was made
	uid     uint32
	gid     uint32
	data    []byte
}

// mungeCall sends one request to munged at socket and reads its reply.
func mungeCall(socket string, typ uint8, body []byte) (*mungeReply, error) {
	conn, err := net.DialTimeout("unix", socket, mungeTimeout)
	if err != nil {
		return nil, fmt.Errorf("%w: auth/munge: %v", ErrAgent, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(mungeTimeout))
	msg := make([]byte, 0, mungeHdrLen+len(body))
	msg = binary.BigEndian.AppendUint32(msg, mungeMsgMagic)
	msg = append(msg, mungeMsgVersion, typ, 0)
	msg = binary.BigEndian.AppendUint32(msg, uint32(len(body)))
	msg = append(msg, body...)
	if _, err := conn.Write(msg); err != nil {
		return nil, fmt.Errorf("%w: auth/munge: %v", ErrAgent, err)
	}
	var hdr [mungeHdrLen]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return nil, fmt.Errorf("%w: auth/munge: reading munged's reply: %v", ErrAgent, err)
	}
	n := binary.BigEndian.Uint32(hdr[7:])
	switch {
	case binary.BigEndian.Uint32(hdr[0:]) != mungeMsgMagic || hdr[4] != mungeMsgVersion:
		return nil, fmt.Errorf("%w: header % x", errMungeProtocol, hdr)
	case hdr[5] != typ+1:
		return nil, fmt.Errorf("%w: reply type %d to request type %d", errMungeProtocol, hdr[5], typ)
	case n > mungeMaxReply:
		return nil, fmt.Errorf("%w: %d-byte reply", errMungeProtocol, n)
	}
	rb := make([]byte, n)
	if _, err := io.ReadFull(conn, rb); err != nil {
		return nil, fmt.Errorf("%w: auth/munge: reading munged's reply: %v", ErrAgent, err)
	}
	return parseMungeReply(typ+1, rb)
}

// parseMungeReply decodes an ENC_RSP or DEC_RSP body.
func parseMungeReply(typ uint8, b []byte) (*mungeReply, error) {
	r := mungeReader{b: b}
	rep := &mungeReply{errNum: r.u8()}
	rep.errText = string(bytes.TrimRight(r.bytes(int(r.u8())), "\x00"))
	if typ == mungeMsgDecRsp {
		r.bytes(3)           // cipher, mac, zip
		r.bytes(int(r.u8())) // realm
		rep.ttl = r.u32()    //
		rep.addr = r.bytes(int(r.u8()))
		rep.encoded = r.u32()
		r.u32() // time1: when munged decoded it
		rep.uid, rep.gid = r.u32(), r.u32()
		r.u32() // auth_uid
		r.u32() // auth_gid
	}
	rep.data = r.bytes(int(r.u32()))
	if r.bad || len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d-byte body of type %d", errMungeProtocol, len(b), typ)
	}
	return rep, nil
}

// mungeReader takes big-endian fields off b; a field past the end sets bad.
type mungeReader struct {
	b   []byte
	bad bool
}

func (r *mungeReader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.bad, r.b = true, nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *mungeReader) u8() uint8 {
	if s := r.bytes(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *mungeReader) u32() uint32 {
	if s := r.bytes(4); s != nil {
		return binary.BigEndian.Uint32(s)
	}
	return 0
}

// mungeEncode asks munged for a credential carrying payload.
func mungeEncode(socket string, payload []byte, ttl time.Duration) ([]byte, error) {
	body := []byte{mungeDefault, mungeDefault, mungeDefault, 0} // cipher, mac, zip, no realm
	body = binary.BigEndian.AppendUint32(body, uint32(ttl/time.Second))
	body = binary.BigEndian.AppendUint32(body, mungeAnyID)
	body = binary.BigEndian.AppendUint32(body, mungeAnyID)
	body = binary.BigEndian.AppendUint32(body, uint32(len(payload)))
	body = append(body, payload...)
	rep, err := mungeCall(socket, mungeMsgEncReq, body)
	if err != nil {
		return nil, err
	}
	if rep.errNum != 0 {
		return nil, mungeError(rep)
	}
	cred := bytes.TrimRight(rep.data, "\x00")
	if len(cred) == 0 {
		return nil, fmt.Errorf("%w: empty credential", errMungeProtocol)
	}
	return cred, nil
}

// mungeDecode asks munged to decode cred and returns its payload and metadata, with the
// same verdicts as MungeVerifier.decode: a replayed credential comes back with its data
// and an error wrapping ErrReplayed.
func mungeDecode(socket string, cred []byte) ([]byte, Identity, error) {
	body := binary.BigEndian.AppendUint32(nil, uint32(len(cred)+1))
	body = append(append(body, cred...), 0)
	rep, err := mungeCall(socket, mungeMsgDecReq, body)
	if err != nil {
		return nil, Identity{}, err
	}
	var replayed error
	if rep.errNum != 0 {
		if rep.errNum != emungeCredReplayed {
			return nil, Identity{}, mungeError(rep)
		}
		replayed = mungeError(rep)
	}
	id := Identity{UID: rep.uid, GID: rep.gid, IssuedAt: int64(rep.encoded), Context: ContextRPC}
	if len(rep.addr) == 4 {
		id.Host = net.IP(rep.addr).String() // what `unmunge --numeric` prints as ENCODE_HOST
	}
	if id.IssuedAt != 0 {
		id.Expiry = id.IssuedAt + int64(rep.ttl)
	}
	return rep.data, id, replayed
}

// mungeError maps munged's error number to the package's errors, as unmunge's exit status is.
func mungeError(rep *mungeReply) error {
	msg := rep.errText
	if msg == "" {
		msg = "munge error " + strconv.Itoa(int(rep.errNum))
	}
	switch code := int(rep.errNum); {
	case code == emungeCredReplayed:
		return fmt.Errorf("%w: %s", ErrReplayed, msg)
	case code == emungeCredExpired || code == emungeCredRewound:
		return fmt.Errorf("%w: %s", ErrExpired, msg)
	case code == emungeSocket || code == emungeTimeout:
		return fmt.Errorf("%w: %s", ErrAgent, msg)
	case code >= emungeBadCred:
		return fmt.Errorf("%w: %s", ErrForged, msg)
	}
	return fmt.Errorf("%w: auth/munge: %s", ErrAgent, msg)
}
