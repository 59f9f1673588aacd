package openapi

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// YAML serializes v as Slurm's serializer_yaml plugin does: a libyaml 1.1 document where
// every node carries its tag (!!map, !!seq, !!str, !!int, !!float, !!bool, !!null), block
// style, lists inside mappings not indented, empty collections in flow style ([] and {}),
// scalars plain when libyaml allows it, else single-quoted, else double-quoted with
// escapes, and long scalars folded at spaces past column 80. It ends with "...\n".
func YAML(v *Value) string {
	e := &yamlEmitter{}
	e.put("%YAML 1.1")
	e.newline()
	e.put("---")
	e.root(v)
	if e.col > 0 {
		e.newline()
	}
	e.put("...")
	e.newline()
	return e.b.String()
}

// yamlBestWidth is libyaml's default best_width: a scalar breaks at a space once the
// column has passed it.
const yamlBestWidth = 80

type yamlEmitter struct {
	b   strings.Builder
	col int // in characters, as libyaml counts
}

func (e *yamlEmitter) put(s string) {
	e.b.WriteString(s)
	e.col += utf8.RuneCountInString(s)
}

func (e *yamlEmitter) newline() {
	e.b.WriteByte('\n')
	e.col = 0
}

func (e *yamlEmitter) indentTo(n int) {
	if e.col > 0 {
		e.newline()
	}
	for e.col < n {
		e.put(" ")
	}
}

// root writes the document's top node after "---": its entries start at column 0.
func (e *yamlEmitter) root(v *Value) {
	switch {
	case v.Kind == Dict && len(v.Keys) > 0:
		e.put(" !!map")
		e.entries(v, 0)
	case v.Kind == List && len(v.Items) > 0:
		e.put(" !!seq")
		e.items(v, 0)
	default:
		e.value(v, 0)
	}
}

// entries writes a mapping's entries with their keys at indent.
func (e *yamlEmitter) entries(v *Value, indent int) {
	for i, k := range v.Keys {
		e.indentTo(indent)
		e.put("!!str")
		e.scalar(k, indent, true)
		e.put(":")
		e.value(v.Vals[i], indent)
	}
}

// value writes a node after what is already on its line ("key:" or "-"); indent is where
// the keys or dashes of the collection holding it sit. A list inside a mapping is not
// indented further (libyaml's indentless sequence), a mapping is.
func (e *yamlEmitter) value(v *Value, indent int) {
	switch v.Kind {
	case Dict:
		if len(v.Keys) == 0 {
			e.put(" !!map {}")
			return
		}
		e.put(" !!map")
		e.entries(v, indent+2)
	case List:
		if len(v.Items) == 0 {
			e.put(" !!seq []")
			return
		}
		e.put(" !!seq")
		e.items(v, indent)
	default:
		e.scalarNode(v, indent)
	}
}

// items writes a block sequence's items with their dashes at indent.
func (e *yamlEmitter) items(v *Value, indent int) {
	for _, it := range v.Items {
		e.indentTo(indent)
		e.put("-")
		if it.Kind == List && len(it.Items) > 0 {
			e.put(" !!seq")
			e.items(it, indent+2)
			continue
		}
		e.value(it, indent)
	}
}

// scalarNode writes a tagged scalar; its continuation lines are indented one step past the
// collection's indent, as libyaml's emit_scalar does.
func (e *yamlEmitter) scalarNode(v *Value, indent int) {
	switch v.Kind {
	case Null, NullString:
		e.put(" !!null null")
	case Bool:
		e.put(" !!bool " + strconv.FormatBool(v.B))
	case Int:
		e.put(" !!int " + strconv.FormatInt(v.I, 10))
	case Float:
		e.put(" !!float " + strconv.FormatFloat(v.F, 'f', 6, 64)) // C's "%lf"
	case String:
		e.put(" !!str")
		e.scalar(v.S, indent+2, false)
	}
}

// scalar writes s (after a tag) in the style libyaml selects for it. key says s is a
// mapping key (a simple key: never folded).
func (e *yamlEmitter) scalar(s string, indent int, key bool) {
	a := analyzeScalar(s)
	style := 'p'
	if !a.blockPlain {
		style = '\''
	}
	if s == "" && key {
		style = '\''
	}
	if key && a.multiline {
		style = '"'
	}
	if style == '\'' && !a.singleQuoted {
		style = '"'
	}
	breaks := !key
	switch style {
	case 'p':
		e.writePlain(s, indent, breaks)
	case '\'':
		e.writeSingle(s, indent, breaks)
	default:
		e.writeDouble(s, indent, breaks)
	}
}

// writeIndent is libyaml's yaml_emitter_write_indent inside a scalar: a line break, then
// spaces up to indent.
func (e *yamlEmitter) writeIndent(indent int) {
	e.newline()
	for e.col < indent {
		e.put(" ")
	}
}

type runeAt struct {
	r   rune
	bad bool // an invalid UTF-8 byte, held in r
}

func decodeRunes(s string) []runeAt {
	var rs []runeAt
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			rs = append(rs, runeAt{rune(s[i]), true})
			i++
			continue
		}
		rs = append(rs, runeAt{r, false})
		i += n
	}
	return rs
}

func isBreak(r rune) bool {
	return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isPrintable(r rune) bool {
	return r == 0x0A || (r >= 0x20 && r <= 0x7E) || r == 0x85 || (r >= 0xA0 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF) || (r >= 0x10000 && r <= 0x10FFFF)
}

func (e *yamlEmitter) writePlain(s string, indent int, allowBreaks bool) {
	if s != "" {
		e.put(" ")
	}
	rs := decodeRunes(s)
	spaces := false
	for i, c := range rs {
		if c.r == ' ' {
			if allowBreaks && !spaces && e.col > yamlBestWidth && !(i+1 < len(rs) && rs[i+1].r == ' ') {
				e.writeIndent(indent)
			} else {
				e.put(" ")
			}
			spaces = true
			continue
		}
		e.put(string(c.r))
		spaces = false
	}
}

func (e *yamlEmitter) writeSingle(s string, indent int, allowBreaks bool) {
	e.put(" '")
	rs := decodeRunes(s)
	spaces, breaks := false, false
	for i, c := range rs {
		switch {
		case c.r == ' ':
			if allowBreaks && !spaces && e.col > yamlBestWidth && i != 0 && i != len(rs)-1 && rs[i+1].r != ' ' {
				e.writeIndent(indent)
			} else {
				e.put(" ")
			}
			spaces = true
		case isBreak(c.r):
			if !breaks && c.r == '\n' {
				e.newline()
			}
			if c.r == '\n' {
				e.newline()
			} else {
				e.b.WriteString(string(c.r))
				e.col = 0
			}
			breaks = true
		default:
			if breaks {
				e.writeIndentSoft(indent)
			}
			if c.r == '\'' {
				e.put("'")
			}
			e.put(string(c.r))
			spaces, breaks = false, false
		}
	}
	if breaks {
		e.writeIndentSoft(indent)
	}
	e.put("'")
}

// writeIndentSoft is write_indent right after a line break: only the spaces.
func (e *yamlEmitter) writeIndentSoft(indent int) {
	for e.col < indent {
		e.put(" ")
	}
}

func (e *yamlEmitter) writeDouble(s string, indent int, allowBreaks bool) {
	e.put(` "`)
	rs := decodeRunes(s)
	spaces := false
	for i, c := range rs {
		r := c.r
		if c.bad || !isPrintable(r) || r > 0x7F || r == 0xFEFF || isBreak(r) || r == '"' || r == '\\' {
			e.put(`\`)
			switch {
			case c.bad:
				e.put(fmt.Sprintf("x%02X", r))
			case r == 0:
				e.put("0")
			case r == 7:
				e.put("a")
			case r == '\b':
				e.put("b")
			case r == '\t':
				e.put("t")
			case r == '\n':
				e.put("n")
			case r == 0x0B:
				e.put("v")
			case r == '\f':
				e.put("f")
			case r == '\r':
				e.put("r")
			case r == 0x1B:
				e.put("e")
			case r == '"':
				e.put(`"`)
			case r == '\\':
				e.put(`\`)
			case r == 0x85:
				e.put("N")
			case r == 0xA0:
				e.put("_")
			case r == 0x2028:
				e.put("L")
			case r == 0x2029:
				e.put("P")
			case r <= 0xFF:
				e.put(fmt.Sprintf("x%02X", r))
			case r <= 0xFFFF:
				e.put(fmt.Sprintf("u%04X", r))
			default:
				e.put(fmt.Sprintf("U%08X", r))
			}
			spaces = false
			continue
		}
		if r == ' ' {
			if allowBreaks && !spaces && e.col > yamlBestWidth && i != 0 && i != len(rs)-1 {
				e.writeIndent(indent)
				if i+1 < len(rs) && rs[i+1].r == ' ' {
					e.put(`\`)
				}
			} else {
				e.put(" ")
			}
			spaces = true
			continue
		}
		e.put(string(r))
		spaces = false
	}
	e.put(`"`)
}

// scalarAnalysis is what libyaml's yaml_emitter_analyze_scalar decides about a scalar.
type scalarAnalysis struct {
	multiline    bool
	blockPlain   bool
	singleQuoted bool
}

func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{blockPlain: true, singleQuoted: true}
	}
	rs := decodeRunes(s)
	var blockInd, special, lineBreaks bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var prevSpace, prevBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockInd = true
	}
	blankz := func(i int) bool {
		return i >= len(rs) || rs[i].r == ' ' || rs[i].r == '\t' || isBreak(rs[i].r) || rs[i].r == 0
	}
	precededByWS := true
	for i, c := range rs {
		r := c.r
		followedByWS := blankz(i + 1)
		if i == 0 {
			switch r {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockInd = true
			case '?', ':':
				if followedByWS {
					blockInd = true
				}
			case '-':
				if followedByWS {
					blockInd = true
				}
			}
		} else {
			switch r {
			case ':':
				if followedByWS {
					blockInd = true
				}
			case '#':
				if precededByWS {
					blockInd = true
				}
			}
		}
		if c.bad || !isPrintable(r) || r > 0x7F {
			special = true
		}
		if isBreak(r) {
			lineBreaks = true
		}
		switch {
		case r == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i == len(rs)-1 {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case isBreak(r):
			if i == 0 {
				leadingBreak = true
			}
			if i == len(rs)-1 {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWS = blankz(i)
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlain = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.blockPlain, a.singleQuoted = false, false
	}
	if lineBreaks || blockInd {
		a.blockPlain = false
	}
	return a
}
