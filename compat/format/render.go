package format

import "strings"

// Header renders the title line (without its newline).
func (f *Format[R]) Header() string {
	var b strings.Builder
	for _, it := range f.Items {
		if it.Kind == ItemField {
			fd := &f.Table.Fields[it.Field]
			pad(&b, f.Table.Dialect, Cell{Text: fd.Title, NoCut: fd.TitleNoCut}, it.Width, it.Right)
		}
		b.WriteString(it.Suffix)
	}
	return b.String()
}

// Row renders one row (without its newline).
func (f *Format[R]) Row(r R) string {
	var b strings.Builder
	f.appendRow(&b, r)
	return b.String()
}

func (f *Format[R]) appendRow(b *strings.Builder, r R) {
	for _, it := range f.Items {
		if it.Kind == ItemField {
			fd := &f.Table.Fields[it.Field]
			var c Cell
			if fd.Sized != nil {
				c = fd.Sized(r, it.Width)
			} else {
				c = fd.Value(r)
			}
			pad(b, f.Table.Dialect, c, it.Width, it.Right)
		}
		b.WriteString(it.Suffix)
	}
}

// Render renders the header (unless noHeader) and every row, each line ending in "\n", as
// the command prints them.
func (f *Format[R]) Render(rows []R, noHeader bool) string {
	var b strings.Builder
	if !noHeader {
		b.WriteString(f.Header())
		b.WriteByte('\n')
	}
	for i, r := range rows {
		if i == 1 {
			// Rows of one format are about as long as each other: size the output once
			// instead of growing (and copying) it a few dozen times for a large queue.
			b.Grow(b.Len() * (len(rows) + 1) * 9 / 8)
		}
		f.appendRow(&b, r)
		b.WriteByte('\n')
	}
	return b.String()
}

// pad writes one cell as Slurm's _print_str does: a right-justified column pads on the left
// and is cut to the width unless the cell is NoCut; a left-justified column is always cut
// (printf precision) and padded on the right; width 0 prints the text as is.
func pad(b *strings.Builder, d Dialect, c Cell, width int, right bool) {
	s := c.Text
	switch {
	case width == 0:
		b.WriteString(s)
		return
	case width < 0:
		if d == DialectSqueue {
			b.WriteString(s)
			b.WriteByte(' ')
			return
		}
		if right {
			b.WriteString(s)
			spaces(b, -width-len(s))
			return
		}
		b.WriteString(s)
		return
	}
	if right {
		if len(s) < width {
			spaces(b, width-len(s))
			b.WriteString(s)
			return
		}
		if !c.NoCut {
			s = s[:width]
		}
		b.WriteString(s)
		return
	}
	if len(s) > width {
		s = s[:width]
	}
	b.WriteString(s)
	spaces(b, width-len(s))
}

const blanks = "                                                                "

func spaces(b *strings.Builder, n int) {
	for ; n > len(blanks); n -= len(blanks) {
		b.WriteString(blanks)
	}
	if n > 0 {
		b.WriteString(blanks[:n])
	}
}
