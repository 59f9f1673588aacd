package main

import (
	"bufio"
	"io"
	"os"
)

// maxInputFields is Slurm's MAX_INPUT_FIELDS: one interactive line holds at most 128 words
// (Slurm's message for more says 127).
const maxInputFields = 128

// interactive runs commands read from stdin, one a line, after a "scontrol: " prompt, until
// end of input or exit/quit. Like Slurm built with readline, it echoes each line after the
// prompt when stdin is not a terminal, and "!!" repeats the previous line. Readline's own
// display tricks are not reproduced: TAB completion (Slurm beeps and drops the TAB) and the
// horizontal scrolling of lines wider than 80 columns in that echo.
func (c *cli) interactive(in io.Reader) {
	r := bufio.NewReader(in)
	echo := !isTerminal(os.Stdin)
	var last string
	haveLast := false
	for {
		c.stdout.WriteString("scontrol: ")
		c.stdout.Flush() // the prompt, and the last command's answer, before waiting on the user
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			c.stdout.WriteByte('\n')
			return
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if echo {
			c.stdout.WriteString(line + "\n")
		}
		if line == "!!" {
			if !haveLast {
				line = ""
			} else {
				line = last
			}
		} else {
			last, haveLast = line, true
		}
		words, ok := c.splitLine(line)
		if !ok {
			c.stdout.WriteByte('\n')
			return
		}
		if len(words) == 0 {
			c.exitCode = 1 // Slurm counts an empty line as a failed command
			continue
		}
		c.processCommand(words)
		if c.exitFlag {
			return
		}
	}
}

// splitLine breaks a line into words at white space, as Slurm's _get_command does: quotes
// (other than one opening a word) protect white space and are kept in the word.
func (c *cli) splitLine(line string) ([]string, bool) {
	var words []string
	for i := 0; i < len(line); i++ {
		if line[i] == 0 {
			break
		}
		if isSpace(line[i]) {
			continue
		}
		if len(words)+1 > maxInputFields {
			c.exitCode = 1
			c.eprintf("%s: can not process over %d words\n", c.prog, maxInputFields-1)
			return nil, false
		}
		start := i
		dq, sq := false, false
		for i++; i < len(line); i++ {
			ch := line[i]
			if ch == '"' {
				dq = !dq
				continue
			}
			if ch == '\'' {
				sq = !sq
				continue
			}
			if ch == 0 || (!dq && !sq && isSpace(ch)) {
				break
			}
		}
		words = append(words, line[start:i])
		if i < len(line) && line[i] == 0 {
			break
		}
	}
	return words, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
