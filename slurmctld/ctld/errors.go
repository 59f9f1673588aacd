package ctld

import "github.com/orbit-hpc/orbit/internal/wire"

// Slurm errno values the controller returns, with Slurm 22.05's numbers and texts (commands
// print the texts, so they must match slurm_strerror).
const (
	errnoInvalidPartitionName = 2000 // ESLURM_INVALID_PARTITION_NAME
	errnoDefaultPartNotSet    = 2001 // ESLURM_DEFAULT_PARTITION_NOT_SET
	errnoAccessDenied         = 2002 // ESLURM_ACCESS_DENIED
	errnoNodesNotInPartition  = 2004 // ESLURM_REQUESTED_NODES_NOT_IN_PARTITION
	errnoInvalidNodeCount     = 2006 // ESLURM_INVALID_NODE_COUNT
	errnoScriptMissing        = 2009 // ESLURM_JOB_SCRIPT_MISSING
	errnoNodeConfigUnavail    = 2014 // ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE
	errnoInvalidJobID         = 2017 // ESLURM_INVALID_JOB_ID
	errnoInvalidNodeName      = 2018 // ESLURM_INVALID_NODE_NAME
	errnoAlreadyDone          = 2021 // ESLURM_ALREADY_DONE
	errnoJobPending           = 2024 // ESLURM_JOB_PENDING
	errnoInvalidTaskMemory    = 2044 // ESLURM_INVALID_TASK_MEMORY
	errnoInvalidAcctFreq      = 4003 // ESLURMD_INVALID_ACCT_FREQ
)

var errnoTexts = map[int32]string{
	errnoInvalidPartitionName: "Invalid partition name specified",
	errnoDefaultPartNotSet:    "No partition specified or system default partition",
	errnoAccessDenied:         "Access/permission denied",
	errnoNodesNotInPartition:  "Requested nodes not in this partition",
	errnoInvalidNodeCount:     "Node count specification invalid",
	errnoScriptMissing:        "Job script not specified",
	errnoNodeConfigUnavail:    "Requested node configuration is not available",
	errnoInvalidJobID:         "Invalid job id specified",
	errnoInvalidNodeName:      "Invalid node name specified",
	errnoAlreadyDone:          "Job/step already completing or completed",
	errnoJobPending:           "Job is pending execution",
	errnoInvalidTaskMemory:    "Memory required by task is not available",
	errnoInvalidAcctFreq:      "Invalid accounting frequency requested",
}

// slurmErr returns the wire error for one of the errno values above, with Slurm's text.
func slurmErr(errno int32) *wire.Error {
	if t, ok := errnoTexts[errno]; ok {
		return &wire.Error{Errno: errno, Text: t}
	}
	return wire.NewError(errno)
}
