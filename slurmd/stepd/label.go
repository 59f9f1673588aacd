package stepd

import (
	"bytes"
	"os"
	"sync"
)

// labelFile is an output file that labelled streams share; whole lines are written under
// its lock, so tasks and streams writing the same file do not split each other's lines.
type labelFile struct {
	mu sync.Mutex
	f  *os.File
}

// labeller prefixes each line of one task's stream with its label (Stdio.Label).
type labeller struct {
	file    *labelFile
	label   string
	partial []byte
}

func (l *labeller) Write(p []byte) (int, error) {
	buf := append(l.partial, p...)
	var out bytes.Buffer
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		out.WriteString(l.label)
		out.Write(buf[:i+1])
		buf = buf[i+1:]
	}
	l.partial = append(l.partial[:0], buf...)
	if out.Len() > 0 {
		l.file.mu.Lock()
		_, err := l.file.f.Write(out.Bytes())
		l.file.mu.Unlock()
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush writes an unterminated last line, ended by a newline as srun ends it.
func (l *labeller) flush() {
	if len(l.partial) == 0 {
		return
	}
	l.file.mu.Lock()
	l.file.f.Write(append(append([]byte(l.label), l.partial...), '\n'))
	l.file.mu.Unlock()
	l.partial = nil
}
