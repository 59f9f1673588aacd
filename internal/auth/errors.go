package auth

import "errors"

// Errors a Verifier returns. The texts are Slurm's where Slurm has one (slurm_errno.c), so
// that logs and messages read as a Slurm admin expects. Callers test with errors.Is: the
// returned error may wrap one of these with detail.
var (
	// ErrForged is ESLURM_AUTH_CRED_INVALID: the MAC does not match (wrong key, altered bytes).
	ErrForged = errors.New("Invalid authentication credential")
	// ErrExpired is ESLURM_AUTH_EXPIRED.
	ErrExpired = errors.New("Authentication credential expired")
	// ErrUnpack is ESLURM_AUTH_UNPACK: the bytes are not a credential at all.
	ErrUnpack = errors.New("Cannot unpack credential")
	// ErrReplayed means a credential already accepted was presented again. Slurm's auth
	// plugins have no errno of their own for it; the text follows ESLURMD_CREDENTIAL_REPLAYED.
	ErrReplayed = errors.New("Authentication credential replayed")
	// ErrDigestMismatch means a valid credential arrived with a message it was not issued for.
	ErrDigestMismatch = errors.New("Invalid authentication credential: payload digest mismatch")
	// ErrReplayCacheFull means the verifier holds as many live nonces as it may; it refuses
	// rather than forget a nonce that could then be replayed.
	ErrReplayCacheFull = errors.New("Authentication replay cache full")
	// ErrAgent is the text Slurm gives when the local authentication agent cannot be reached.
	ErrAgent = errors.New("Failed to connect to authentication agent")

	// ErrLaunchInvalid is ESLURMD_INVALID_JOB_CREDENTIAL.
	ErrLaunchInvalid = errors.New("Invalid job credential")
	// ErrLaunchExpired is ESLURMD_CREDENTIAL_EXPIRED.
	ErrLaunchExpired = errors.New("Job credential expired")
)
