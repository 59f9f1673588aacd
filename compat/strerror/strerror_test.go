package strerror

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// TestText pins glibc's spelling of the errors Slurm's messages show most.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{syscall.ENOENT, "No such file or directory"},
		{syscall.EACCES, "Permission denied"},
		{syscall.EPERM, "Operation not permitted"},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.EISDIR}, "Is a directory"},
		{errors.New("not an errno"), "not an errno"},
	} {
		if got := Text(tc.err); got != tc.want {
			t.Errorf("Text(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
