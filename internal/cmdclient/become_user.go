package cmdclient

import (
	"fmt"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/auth"
)

// SetGroup is salloc's setgid(--gid) before it asks for the allocation: the whole process
// (every thread) takes gid as its real, effective and saved group.
func (c *Client) SetGroup(gid uint32) error {
	if err := syscall.Setgid(int(gid)); err != nil {
		return fmt.Errorf("setgid: %s", strerror.Text(err))
	}
	c.setSignerIdentity(uint32(syscall.Getuid()), gid)
	return nil
}

// BecomeUser is how srun and salloc take on --uid's user once the allocation exists: the
// supplementary groups (groups; empty for none) first, then the user; the group is SetGroup's
// business. Requests signed afterwards are signed as that user, as a munge credential made
// after Slurm's setuid would be.
func (c *Client) BecomeUser(uid uint32, groups []int) error {
	if err := syscall.Setgroups(groups); err != nil {
		return fmt.Errorf("setgroups: %s", strerror.Text(err))
	}
	if err := syscall.Setuid(int(uid)); err != nil {
		return fmt.Errorf("setuid: %s", strerror.Text(err))
	}
	c.setSignerIdentity(uid, uint32(syscall.Getgid()))
	return nil
}

// setSignerIdentity makes a key signer sign as the process now is (a munge or socket
// signer asks the kernel at each request and needs nothing).
func (c *Client) setSignerIdentity(uid, gid uint32) {
	if ks, ok := c.signer.(*auth.KeySigner); ok {
		ks.UID, ks.GID = uid, gid
	}
}
