// Package cmdclient owns what every Orbit command (sbatch, squeue, scancel, ...) shares to
// talk to slurmctld: finding and loading slurm.conf as Slurm's commands do (and failing the
// way they fail), the controller's address, the request signer, one Call bounded by
// MessageTimeout with Slurm's connect retries, and Slurm's error texts and exit codes for
// what comes back.
//
// It may import conf/, compat/, internal/wire, internal/auth and internal/rpcauth; it must not
// import daemon code (slurmctld/, slurmd/) or the store.
package cmdclient
