package pmi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxLine bounds one PMI-1 request line (or PMI-2 request), so that a task cannot make the
// server allocate without limit: a put is a key, a value and a few words.
const maxLine = 64 << 10

// errEOF is the task's end of its socket.
var errEOF = io.EOF

// readLine reads one PMI-1 line, without its newline.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		b = append(b, chunk...)
		if err == nil {
			return string(b[:len(b)-1]), nil
		}
		if err != bufio.ErrBufferFull {
			if err == io.EOF && len(b) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if len(b) > maxLine {
			return "", fmt.Errorf("request longer than %d bytes", maxLine)
		}
	}
}

// parsePMI1 splits "cmd=name k=v k=v" into the command and its arguments (the first of a
// repeated key wins; PMI-1 values hold no spaces).
func parsePMI1(line string) (string, map[string]string) {
	args := map[string]string{}
	for _, f := range strings.Fields(line) {
		k, v, _ := strings.Cut(f, "=")
		if _, seen := args[k]; !seen {
			args[k] = v
		}
	}
	return args["cmd"], args
}

// readPMI2 reads one PMI-2 request: a six-character decimal length, then that many bytes of
// "cmd=name;k=v;...;".
func readPMI2(r *bufio.Reader) (string, map[string]string, error) {
	var head [6]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return "", nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(head[:])))
	if err != nil || n < 0 || n > maxLine {
		return "", nil, fmt.Errorf("bad PMI-2 length field %q", head[:])
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", nil, err
	}
	if n == 0 {
		// A second PMI2_Init arrives as an empty request: the client is told to finalize.
		return "", nil, errSecondInit
	}
	args := map[string]string{}
	for _, f := range strings.Split(string(body), ";") {
		if f == "" {
			continue
		}
		k, v, _ := strings.Cut(f, "=")
		if _, seen := args[k]; !seen {
			args[k] = v
		}
	}
	if _, ok := args["cmd"]; !ok {
		return "", nil, fmt.Errorf("request %q does not begin with cmd=", body)
	}
	return args["cmd"], args, nil
}

var errSecondInit = errors.New("empty PMI-2 request (a second init)")

// pmi2Frame is body with PMI-2's length field.
func pmi2Frame(body string) string {
	return fmt.Sprintf("%-6d", len(body)) + body
}
