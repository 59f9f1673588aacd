package format

import (
	"bufio"
	"strings"
	"unsafe"
)

// Header renders the title line (without its newline).
func (f *Format[R]) Header() string {
	return string(f.appendHeader(nil))
}

func (f *Format[R]) appendHeader(b []byte) []byte {
	for _, it := range f.Items {
		if it.Kind == ItemField {
			fd := &f.Table.Fields[it.Field]
			b = appendPad(b, f.Table.Dialect, Cell{Text: fd.Title, NoCut: fd.TitleNoCut}, it.Width, it.Right)
		}
		b = append(b, it.Suffix...)
	}
	return b
}

// Row renders one row (without its newline).
func (f *Format[R]) Row(r R) string {
	return string(f.appendRow(nil, r))
}

// AppendRow appends one rendered row and its newline to b, for a caller that keeps rows as
// text rather than as records until it prints them.
func (f *Format[R]) AppendRow(b []byte, r R) []byte {
	return append(f.appendRow(b, r), '\n')
}

func (f *Format[R]) appendRow(b []byte, r R) []byte {
	for _, it := range f.Items {
		if it.Kind == ItemField {
			fd := &f.Table.Fields[it.Field]
			var c Cell
			if fd.Sized != nil {
				c = fd.Sized(r, it.Width)
			} else {
				c = fd.Value(r)
			}
			b = appendPad(b, f.Table.Dialect, c, it.Width, it.Right)
		}
		b = append(b, it.Suffix...)
	}
	return b
}

// Render renders the header (unless noHeader) and every row, each line ending in "\n", as
// the command prints them.
func (f *Format[R]) Render(rows []R, noHeader bool) string {
	var b []byte
	if !noHeader {
		b = append(f.appendHeader(b), '\n')
	}
	for i, r := range rows {
		if i == 1 {
			// Rows of one format are about as long as each other: size the output once
			// instead of growing (and copying) it a few dozen times for a large queue.
			b = append(make([]byte, 0, len(b)*(len(rows)+1)*9/8), b...)
		}
		b = append(f.appendRow(b, r), '\n')
	}
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not touched again
}

// RenderTo writes what Render returns to w, a row at a time through one small buffer: a
// large queue's output is never held whole (megabytes of freshly faulted memory).
func (f *Format[R]) RenderTo(w *bufio.Writer, rows []R, noHeader bool) {
	b := make([]byte, 0, 4096)
	if !noHeader {
		b = append(f.appendHeader(b), '\n')
	}
	for _, r := range rows {
		b = append(f.appendRow(b, r), '\n')
		if len(b) >= 2048 {
			w.Write(b)
			b = b[:0]
		}
	}
	w.Write(b)
}

// appendPad appends one cell as Slurm's _print_str does: a right-justified column pads on
// the left and is cut to the width unless the cell is NoCut; a left-justified column is
// always cut (printf precision) and padded on the right; width 0 prints the text as is.
func appendPad(b []byte, d Dialect, c Cell, width int, right bool) []byte {
	s := c.Text
	switch {
	case width == 0:
		return append(b, s...)
	case width < 0:
		if d == DialectSqueue {
			return append(append(b, s...), ' ')
		}
		if right {
			return appendSpaces(append(b, s...), -width-len(s))
		}
		return append(b, s...)
	}
	if right {
		if len(s) < width {
			return append(appendSpaces(b, width-len(s)), s...)
		}
		if !c.NoCut {
			s = s[:width]
		}
		return append(b, s...)
	}
	if len(s) > width {
		s = s[:width]
	}
	return appendSpaces(append(b, s...), width-len(s))
}

const blanks = "                                                                "

func appendSpaces(b []byte, n int) []byte {
	for ; n > len(blanks); n -= len(blanks) {
		b = append(b, blanks...)
	}
	if n > 0 {
		b = append(b, blanks[:n]...)
	}
	return b
}

func spaces(b *strings.Builder, n int) {
	for ; n > len(blanks); n -= len(blanks) {
		b.WriteString(blanks)
	}
	if n > 0 {
		b.WriteString(blanks[:n])
	}
}
