package wire

import "fmt"

// FileBcast is srun --bcast's copy of the step's program to one of its nodes (Slurm's
// REQUEST_FILE_BCAST, in one block): slurmd writes Data to Dest as the step's user, mode
// Mode, replacing a file already there. A Dest ending in "/" is a directory: the file is
// slurm_bcast_<job>.<step>_<node> in it. Cred is the step's launch credential, as in
// LaunchTasks. The answer is MsgOK or an error.
type FileBcast struct {
	Cred     []byte `codec:"cred"`
	NodeName string `codec:"node_name"`
	JobID    uint32 `codec:"job_id"`
	StepID   uint32 `codec:"step_id"`
	UserID   uint32 `codec:"user_id"`
	GroupID  uint32 `codec:"group_id"`
	Dest     string `codec:"dest"`
	Mode     uint32 `codec:"mode"`
	Mtime    int64  `codec:"mtime"` // Unix seconds, kept (Slurm's BCAST_FLAG_PRESERVE)
	Data     []byte `codec:"data"`
	// SendLibs (srun --send-libs) has the node make the program's library directory,
	// Dest's file name with "_libs" added, mode 0700; Library, when set, is the base name
	// of a shared library to write into that directory instead of the program.
	SendLibs bool   `codec:"send_libs,omitempty"`
	Library  string `codec:"library,omitempty"`
}

// BcastFileName is the name of a broadcast file in a destination directory on node.
func BcastFileName(jobID, stepID uint32, node string) string {
	return fmt.Sprintf("slurm_bcast_%d.%d_%s", jobID, stepID, node)
}

func init() {
	Register(MsgFileBcast, "REQUEST_FILE_BCAST", func() any { return new(FileBcast) })
}
