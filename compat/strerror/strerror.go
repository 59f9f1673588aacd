// Package strerror owns the C library's text for a system error, which Slurm prints
// wherever its messages say %m or call strerror ("No such file or directory", "Permission
// denied"): Go's text for the same errno, capitalised as glibc writes it.
//
// It imports only the standard library.
package strerror

import (
	"errors"
	"syscall"
)

// Text is strerror(3)'s text for err's errno (found through wrappers such as
// *os.PathError), or err's own text when it carries none.
func Text(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
