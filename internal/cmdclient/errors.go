package cmdclient

import (
	"errors"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Slurm errnos that commands print and exit with.
const (
	// ErrnoControllerConnection is SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR: the controller
	// could not be reached at all.
	ErrnoControllerConnection int32 = 1800
	// ErrnoInvalidJobID is ESLURM_INVALID_JOB_ID.
	ErrnoInvalidJobID int32 = 2017
	// ErrnoAlreadyDone is ESLURM_ALREADY_DONE.
	ErrnoAlreadyDone int32 = 2021
)

// errnoText holds slurm_strerror's text for the errnos this package produces itself; the
// controller sends its own text with every other error.
var errnoText = map[int32]string{
	ErrnoControllerConnection: "Unable to contact slurm controller (connect failure)",
	ErrnoInvalidJobID:         "Invalid job id specified",
	ErrnoAlreadyDone:          "Job/step already completing or completed",
}

// Error is a failed request as a command reports it: the Slurm errno and slurm_strerror's
// text.
type Error struct {
	Errno   int32
	Text    string
	UserMsg string // the controller's explanation, printed before Text (wire.Error.UserMsg)
	cause   error
}

func (e *Error) Error() string { return e.Text }

// Unwrap returns the transport error behind e, if any.
func (e *Error) Unwrap() error { return e.cause }

// NewError returns an *Error with Slurm's text for errno.
func NewError(errno int32) *Error {
	if t, ok := errnoText[errno]; ok {
		return &Error{Errno: errno, Text: t}
	}
	return &Error{Errno: errno, Text: wire.Strerror(errno)}
}

// AsError turns any error a Call returned into an *Error: a peer's error keeps its errno and
// text; a local transport failure gets its errno's text without the Go cause (Slurm prints
// only slurm_strerror's words).
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var we *wire.Error
	if errors.As(err, &we) {
		text := we.Text
		if text == "" {
			text = wire.Strerror(we.Errno)
		}
		return &Error{Errno: we.Errno, Text: text, UserMsg: we.UserMsg, cause: err}
	}
	return &Error{Errno: wire.ErrnoSlurmError, Text: err.Error(), cause: err}
}

// ExitStatus is the exit status a command that exits with a Slurm errno gets: the low 8 bits,
// as exit(2) keeps them (scancel exits 8 when the controller is down: 1800 & 0xff).
func ExitStatus(errno int32) int {
	return int(uint32(errno) & 0xff)
}

// Unreachable says whether err is a failure to reach the controller rather than its answer:
// no connection, or one that broke before the answer came (the controller killed in the
// middle of the call). A command waiting on its allocation keeps waiting through it (a
// controller restart), as Slurm's srun and salloc wait for their grant whatever happens to
// the controller meanwhile.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var e *Error
	if errors.As(err, &e) && (e.Errno == ErrnoControllerConnection || e.Errno == wire.ErrnoSend || e.Errno == wire.ErrnoReceive) {
		return true
	}
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Errno == wire.ErrnoSend || we.Errno == wire.ErrnoReceive
	}
	return true
}
