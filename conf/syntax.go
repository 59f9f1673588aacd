package conf

import "strings"

// This file holds the lexical layer shared by slurm.conf and its companions: logical lines
// (comments, continuations, escapes) and Key=Value pairs, with the exact rules of Slurm 22.05's
// parse_config.c.

// logicalLine is one line as the key parser sees it: comments removed, continued lines joined,
// escapes resolved. Num is the physical line it started on (Slurm reports that number).
type logicalLine struct {
	Num  int
	Text string
}

// isSpace is C's isspace in the "C" locale, which is what Slurm's regex [[:space:]] means.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

// stripComment cuts the line at the first '#' preceded by an even number of backslashes;
// "\#" is a literal '#'.
func stripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if bs%2 == 0 {
				return s[:i]
			}
			bs = 0
		case '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// continuation reports whether s ends (ignoring trailing white space) in an odd number of
// backslashes, and if so returns s cut just before the last of them, as Slurm does.
func continuation(s string) (string, bool) {
	i := len(s) - 1
	for i >= 0 && isSpace(s[i]) {
		i--
	}
	bs := 0
	for j := i; j >= 0 && s[j] == '\\'; j-- {
		bs++
	}
	if bs%2 == 1 {
		return s[:i], true
	}
	return s, false
}

// stripEscapes drops every backslash and keeps the character after it: "\\" is one backslash.
func stripEscapes(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i >= len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// splitLines turns a file's bytes into logical lines. Blank results are dropped.
func splitLines(data []byte) []logicalLine { return splitText(string(data)) }

// splitText is splitLines on text already held as a string: the lines are substrings of it,
// so no line is copied unless it was continued or holds escapes.
func splitText(text string) []logicalLine {
	// Sized for one logical line per physical line, the usual case, so the slice grows once.
	out := make([]logicalLine, 0, strings.Count(text, "\n")+1)
	num := 0
	var pending strings.Builder
	start := 0
	for len(text) > 0 {
		var phys string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			phys, text = text[:i], text[i+1:]
		} else {
			phys, text = text, ""
		}
		num++
		if pending.Len() == 0 {
			start = num
		}
		phys = stripComment(phys)
		if cut, ok := continuation(phys); ok {
			pending.WriteString(cut)
			if len(text) > 0 {
				continue
			}
			phys = ""
		}
		joined := phys
		if pending.Len() > 0 {
			// Only continued lines are copied; a single physical line is used in place.
			pending.WriteString(phys)
			joined = pending.String()
			pending.Reset()
		}
		s := stripEscapes(joined)
		if !isBlank(s) {
			out = append(out, logicalLine{Num: start, Text: s})
		}
	}
	return out
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// nextPair reads one Key=Value pair at the start of s (after optional white space). Spaces
// around '=' are allowed, '=' may be preceded by one of the operators + - * /, and the value is
// either "double quoted" (quotes removed, may hold spaces; the closing quote must be followed by
// white space or the end) or runs to the next white space. rest is what follows the value.
func nextPair(s string) (key string, op byte, value, rest string, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	k := i
	for i < len(s) && isKeyChar(s[i]) {
		i++
	}
	if i == k {
		return "", 0, "", s, false
	}
	key = s[k:i]
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && strings.IndexByte("-*+/", s[i]) >= 0 {
		op = s[i]
		i++
	}
	if i >= len(s) || s[i] != '=' {
		return "", 0, "", s, false
	}
	i++
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		return "", 0, "", s, false
	}
	if s[i] == '"' {
		if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
			end := i + 1 + j
			if end+1 == len(s) || isSpace(s[end+1]) {
				return key, op, s[i+1 : end], s[end+1:], true
			}
		}
	}
	v := i
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return key, op, s[v:i], s[i:], true
}

// trimCRLF removes trailing CR and LF characters, as Slurm does before quoting a line in a
// "Parse error" message.
func trimCRLF(s string) string { return strings.TrimRight(s, "\r\n") }
