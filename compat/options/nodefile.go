package options

import (
	"errors"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/strerror"
)

// resolveNodeFile is -F/--nodefile as Slurm's commands apply it once every option is in
// (slurm_read_hostfile): the file's node names replace --nodelist, one or more hostlist
// expressions a line, '#' starting a comment, each name once. A file that cannot be read is
// Slurm's two-line error and exit 255; names no node has are the controller's to refuse.
func (a *applier) resolveNodeFile() error {
	path := a.js.NodeFile
	if path == "" {
		return nil
	}
	name := cmdName(a.cmd)
	empty := &Error{ExitCode: 255, Stderr: name + ": error: Hostlist is empty!\n" + name + ": error: Invalid --nodefile node file\n"}
	b, err := readLimited(path) // hostfile.go
	if errors.Is(err, syscall.EISDIR) {
		return empty // a directory opens, and reads as nothing
	}
	if err != nil {
		why := err.Error()
		var errno syscall.Errno
		if errors.As(err, &errno) {
			why = strerror.Text(errno)
		}
		return &Error{ExitCode: 255, Stderr: name + ": error: slurm_allocate_resources error opening file " + path + ", " + why + "\n" +
			name + ": error: Invalid --nodefile node file\n"}
	}
	var names []string
	seen := map[string]bool{}
	for _, line := range strings.Split(stripComments(string(b)), "\n") {
		for _, expr := range strings.Fields(line) {
			hosts, err := hostlist.Expand(expr)
			if err != nil {
				hosts = []string{expr} // the controller answers for a name it does not know
			}
			for _, h := range hosts {
				if !seen[h] {
					seen[h] = true
					names = append(names, h)
				}
			}
		}
	}
	if len(names) == 0 {
		return empty
	}
	a.js.NodeList = hostlist.Compress(names)
	return nil
}

// stripComments drops what follows '#' on every line.
func stripComments(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.IndexByte(l, '#'); j >= 0 {
			lines[i] = l[:j]
		}
	}
	return strings.Join(lines, "\n")
}
