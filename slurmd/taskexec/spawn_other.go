//go:build !linux || !cgo

package taskexec

// Start cannot start tasks in this build: see ErrUnsupported.
func Start(p *Proc) (int, error) {
	if _, err := pack(p); err != nil {
		return 0, err
	}
	return 0, ErrUnsupported
}

// Supported says Start can start tasks in this build.
const Supported = false
