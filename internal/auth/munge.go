package auth

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// auth/munge: credentials made and checked by the local munged, asked over its socket
// (munge_client.go) or, as a fallback, through the munge and unmunge commands. munged keeps
// its own replay cache and expiry (ttl), so MungeVerifier needs none. The payload is the
// 32-byte body digest.

// munge_err_t values reported as unmunge's exit status.
const (
	emungeSocket       = 6
	emungeTimeout      = 7
	emungeBadCred      = 8
	emungeCredExpired  = 15
	emungeCredRewound  = 16
	emungeCredReplayed = 17
)

// mungeTimeout bounds one munge or unmunge run.
const mungeTimeout = 10 * time.Second

// MungeSigner signs with `munge`.
type MungeSigner struct {
	Socket  string        // munged's socket; DefaultMungeSocket unless set
	TTL     time.Duration // 0: munged's default
	Command string        // "munge" unless set
}

// Sign returns a MUNGE credential whose payload is bodyDigest. It asks munged over its
// socket (munge_client.go); the munge command is run only when Command names one or munged
// answers in a protocol this client does not know.
func (m *MungeSigner) Sign(bodyDigest [32]byte) ([]byte, error) {
	if m.Command == "" {
		cred, err := mungeEncode(orDefault(m.Socket, DefaultMungeSocket), bodyDigest[:], m.TTL)
		if !errors.Is(err, errMungeProtocol) {
			return cred, err
		}
	}
	cmdName := m.Command
	if cmdName == "" {
		cmdName = "munge"
	}
	args := []string{"--socket=" + orDefault(m.Socket, DefaultMungeSocket)}
	if m.TTL > 0 {
		args = append(args, "--ttl="+strconv.Itoa(int(m.TTL/time.Second)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), mungeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmdName, args...)
	cmd.Stdin = bytes.NewReader(bodyDigest[:])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() != emungeSocket && ee.ExitCode() != emungeTimeout {
			return nil, fmt.Errorf("auth/munge: %s: %v: %s", cmdName, err, msg)
		}
		return nil, fmt.Errorf("%w: auth/munge: %s: %v: %s", ErrAgent, cmdName, err, msg)
	}
	return bytes.TrimSpace(out), nil
}

// MungeVerifier verifies with `unmunge`.
type MungeVerifier struct {
	Socket  string // munged's socket; DefaultMungeSocket unless set
	Command string // "unmunge" unless set
}

// Verify decodes cred with unmunge and checks its payload against bodyDigest. munged's
// verdicts map to ErrExpired, ErrReplayed and ErrForged; an unreachable munged to ErrAgent.
func (m *MungeVerifier) Verify(cred []byte, bodyDigest [32]byte) (Identity, error) {
	payload, id, err := m.decode(cred)
	if err != nil {
		return Identity{}, err
	}
	if !bytes.Equal(payload, bodyDigest[:]) {
		return Identity{}, ErrDigestMismatch
	}
	return id, nil
}

// decode runs unmunge on cred and returns its payload and metadata. A replayed credential
// is still decoded (munged reports the replay but returns the data): the error then wraps
// ErrReplayed and payload and identity are valid, for callers whose credentials are meant to
// be verified more than once (launch credentials).
func (m *MungeVerifier) decode(cred []byte) ([]byte, Identity, error) {
	if m.Command == "" {
		payload, id, err := mungeDecode(orDefault(m.Socket, DefaultMungeSocket), cred)
		if !errors.Is(err, errMungeProtocol) {
			return payload, id, err
		}
	}
	cmdName := m.Command
	if cmdName == "" {
		cmdName = "unmunge"
	}
	// The metadata goes to fd 3 and the payload to stdout, so the binary payload never
	// mixes with the text.
	mr, mw, err := os.Pipe()
	if err != nil {
		return nil, Identity{}, fmt.Errorf("auth/munge: %w", err)
	}
	defer mr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), mungeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmdName, "--socket="+orDefault(m.Socket, DefaultMungeSocket),
		"--numeric", "--metadata=/dev/fd/3", "--output=/dev/stdout")
	cmd.Stdin = bytes.NewReader(cred)
	cmd.ExtraFiles = []*os.File{mw}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		mw.Close()
		return nil, Identity{}, fmt.Errorf("%w: auth/munge: %v", ErrAgent, err)
	}
	mw.Close()
	meta, _ := io.ReadAll(io.LimitReader(mr, 64<<10))
	err = cmd.Wait()
	var replayed error
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, Identity{}, fmt.Errorf("%w: unmunge: %v: %s", ErrAgent, err, msg)
		}
		switch code := ee.ExitCode(); {
		case code == emungeCredReplayed:
			replayed = fmt.Errorf("%w: %s", ErrReplayed, msg)
		case code == emungeCredExpired || code == emungeCredRewound:
			return nil, Identity{}, fmt.Errorf("%w: %s", ErrExpired, msg)
		case code == emungeSocket || code == emungeTimeout:
			return nil, Identity{}, fmt.Errorf("%w: %s", ErrAgent, msg)
		case code >= emungeBadCred:
			return nil, Identity{}, fmt.Errorf("%w: %s", ErrForged, msg)
		default:
			return nil, Identity{}, fmt.Errorf("%w: unmunge: %v: %s", ErrAgent, err, msg)
		}
	}
	id, err := parseMungeMetadata(meta)
	if err != nil {
		return nil, Identity{}, err
	}
	if replayed != nil {
		// Verify must refuse a replay; callers that accept one check errors.Is(err,
		// ErrReplayed) and use the data.
		return stdout.Bytes(), id, replayed
	}
	return stdout.Bytes(), id, nil
}

// parseMungeMetadata reads unmunge's "KEY: value" lines.
func parseMungeMetadata(meta []byte) (Identity, error) {
	var id Identity
	var haveUID, haveGID bool
	ttl := int64(-1)
	sc := bufio.NewScanner(bytes.NewReader(meta))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "UID":
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil {
				return id, fmt.Errorf("%w: unmunge UID %q", ErrUnpack, v)
			}
			id.UID, haveUID = uint32(n), true
		case "GID":
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil {
				return id, fmt.Errorf("%w: unmunge GID %q", ErrUnpack, v)
			}
			id.GID, haveGID = uint32(n), true
		case "ENCODE_HOST":
			id.Host = v
		case "ENCODE_TIME":
			id.IssuedAt, _ = strconv.ParseInt(v, 10, 64)
		case "TTL":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				ttl = n
			}
		}
	}
	if !haveUID || !haveGID {
		return id, fmt.Errorf("%w: unmunge metadata lacks UID or GID", ErrUnpack)
	}
	if ttl >= 0 && id.IssuedAt != 0 {
		id.Expiry = id.IssuedAt + ttl
	}
	id.Context = ContextRPC
	return id, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
