package options

import "bytes"

// checkScript applies sbatch's checks to a batch script and returns the command's error
// for one it refuses.
func checkScript(b []byte) error {
	fail := func(lines ...string) error { return cmdError(Sbatch, 1, lines...) }
	switch {
	case len(b) == 0:
		return fail("Batch script is empty!")
	case onlyWhitespace(b):
		return fail("Batch script contains only whitespace!")
	case len(b) < 2 || b[0] != '#' || b[1] != '!':
		return fail("This does not look like a batch script.  The first",
			"line must start with #! followed by the path to an interpreter.",
			"For instance: #!/bin/sh")
	case bytes.IndexByte(b, 0) >= 0:
		return fail("The Slurm controller does not allow scripts that",
			"contain a NULL character '\\0'.")
	case bytes.Contains(b, []byte("\r\n")):
		return fail("Batch script contains DOS line breaks (\\r\\n)",
			"instead of expected UNIX line breaks (\\n).")
	}
	return nil
}

// onlyWhitespace is Slurm's xstring_is_whitespace on the NUL-terminated buffer: it looks
// only up to the first NUL byte.
func onlyWhitespace(b []byte) bool {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// WrapScript is the script sbatch --wrap submits for command.
func WrapScript(command string) []byte {
	return []byte("#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + command + "\n")
}
