// Package auth owns Orbit's authentication: the shared key (slurm.key), the short-lived
// credentials every RPC carries, the local auth socket through which unprivileged commands
// obtain credentials, the launch credentials that let a node start a step, and the
// auth/munge alternative.
//
// It follows Slurm's auth/slurm model (Slurm 23.11+): a key readable only by root and SlurmUser's group
// signs credentials (uid, gid, host, issue and expiry time, nonce, payload digest) with
// HMAC-SHA256. A command that cannot read the key asks the local daemon over a Unix socket;
// the daemon learns the caller's uid/gid from the kernel (SO_PEERCRED) and signs for that
// identity only. Verifiers refuse forged, expired, replayed credentials and credentials whose
// payload digest does not match the message they arrived with.
//
// Key location: the daemons take the key path as an argument; KeyPath gives Slurm's rule
// ($SLURM_SACK_KEY, else slurm.key in slurm.conf's directory). LoadKey refuses, as Slurm does, a
// key that others may access (group access is allowed: sites keep it 0640 root:slurm), or one
// shorter than MinKeyLen bytes; GenerateKey writes one (0600).
// The auth socket's path is the daemon's choice (Slurm uses /run/slurm/sack.socket on nodes
// and /run/slurmctld/sack.socket on the controller); it speaks Orbit's own small protocol.
//
// The transport (internal/wire) carries the credential as opaque bytes computed over
// sha256(body); it calls a Signer to sign and a Verifier to verify. This package must not
// import internal/wire, conf, or any daemon: it is a leaf that those build on.
package auth
