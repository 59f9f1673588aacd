package cmdclient

import "syscall"

// SessionID is the calling process's session id (getsid(0)): what sbatch, salloc and srun
// send as the job's alloc_sid, shown by scontrol as AllocNode:Sid. 0 if it cannot be read.
func SessionID() uint32 {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	if errno != 0 {
		return 0
	}
	return uint32(sid)
}
