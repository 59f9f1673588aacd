package node

import "github.com/orbit-hpc/orbit/internal/wire"

// Slurm errno values slurmd answers with (slurm_errno.h, 22.05), with Slurm's texts.
const (
	errnoUserIDMissing     int32 = 2010 // ESLURM_USER_ID_MISSING: an RPC from an unauthorized user
	errnoInvalidJobID      int32 = 2017 // ESLURM_INVALID_JOB_ID
	errnoInvalidNodeName   int32 = 2018 // ESLURM_INVALID_NODE_NAME
	errnoKillJobComplete   int32 = 4002 // ESLURMD_KILL_JOB_ALREADY_COMPLETE
	errnoInvalidCredential int32 = 4004 // ESLURMD_INVALID_JOB_CREDENTIAL
	errnoCredentialExpired int32 = 4007 // ESLURMD_CREDENTIAL_EXPIRED
	errnoExecveFailed      int32 = 4020 // ESLURMD_EXECVE_FAILED
)

func errInvalidNode(name string) *wire.Error {
	return wire.Errorf(errnoInvalidNodeName, "Invalid node name specified: %s is not served by this slurmd", name)
}
