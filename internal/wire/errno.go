package wire

import "fmt"

// Slurm errno values the transport itself produces, with Slurm 22.05's numbers and
// slurm_strerror texts (commands print these texts, so they must match).
const (
	ErrnoSlurmError      int32 = -1   // SLURM_ERROR
	ErrnoUnexpectedMsg   int32 = 1000 // SLURM_UNEXPECTED_MSG_ERROR
	ErrnoConnection      int32 = 1001 // SLURM_COMMUNICATIONS_CONNECTION_ERROR
	ErrnoSend            int32 = 1002 // SLURM_COMMUNICATIONS_SEND_ERROR
	ErrnoReceive         int32 = 1003 // SLURM_COMMUNICATIONS_RECEIVE_ERROR
	ErrnoProtocolVersion int32 = 1005 // SLURM_PROTOCOL_VERSION_ERROR
	ErrnoAuthentication  int32 = 1007 // SLURM_PROTOCOL_AUTHENTICATION_ERROR
	ErrnoInsaneMsgLength int32 = 1008 // SLURM_PROTOCOL_INSANE_MSG_LENGTH
	ErrnoAccessDenied    int32 = 2002 // ESLURM_ACCESS_DENIED
	ErrnoNodesBusy       int32 = 2016 // ESLURM_NODES_BUSY: srun retries a step refused with it
	ErrnoZeroLengthMsg   int32 = 5000 // SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH
	ErrnoSocketTimeout   int32 = 5004 // SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT
	ErrnoShutdown        int32 = 1004 // SLURM_COMMUNICATIONS_SHUTDOWN_ERROR
)

var errnoText = map[int32]string{
	ErrnoSlurmError:      "Unspecified error",
	ErrnoUnexpectedMsg:   "Unexpected message received",
	ErrnoConnection:      "Communication connection failure",
	ErrnoSend:            "Message send failure",
	ErrnoReceive:         "Message receive failure",
	ErrnoShutdown:        "Communication shutdown failure",
	ErrnoProtocolVersion: "Incompatible versions of client and server code",
	ErrnoAuthentication:  "Protocol authentication error",
	ErrnoInsaneMsgLength: "Insane message length",
	ErrnoAccessDenied:    "Access/permission denied",
	ErrnoNodesBusy:       "Requested nodes are busy",
	ErrnoZeroLengthMsg:   "Received zero length message",
	ErrnoSocketTimeout:   "Socket timed out on send/recv operation",
}

// Strerror returns Slurm's text for the errno values this package knows, and Slurm's
// "Unknown error N" form otherwise; other packages pass their own Text.
func Strerror(errno int32) string {
	if s, ok := errnoText[errno]; ok {
		return s
	}
	return fmt.Sprintf("Unknown error %d", errno)
}

// NewError returns an *Error carrying errno and Slurm's text for it.
func NewError(errno int32) *Error {
	return &Error{Errno: errno, Text: Strerror(errno)}
}

// Errorf returns an *Error carrying errno and a formatted text.
func Errorf(errno int32, format string, args ...any) *Error {
	return &Error{Errno: errno, Text: fmt.Sprintf(format, args...)}
}

// Error returns the text as Slurm would print it; when the text is empty, Slurm's text for
// the errno.
func (e *Error) Error() string {
	text := e.Text
	if text == "" {
		text = Strerror(e.Errno)
	}
	if e.cause != nil {
		return text + ": " + e.cause.Error()
	}
	return text
}

// Unwrap returns the local error behind a transport failure (a timeout, a refused
// connection), or nil for an error the peer sent.
func (e *Error) Unwrap() error { return e.cause }

// transportError wraps a local failure as an *Error with a Slurm errno.
func transportError(errno int32, cause error) *Error {
	return &Error{Errno: errno, Text: Strerror(errno), cause: cause}
}
