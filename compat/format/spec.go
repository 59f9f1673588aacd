package format

import (
	"fmt"
	"strings"
)

// MaxWidth caps a column width. Slurm would pad to any width printf accepts; Orbit caps it
// so that a hostile spec cannot make a command allocate gigabytes.
const MaxWidth = 1 << 16

// ItemKind says what an Item prints.
type ItemKind int

const (
	// ItemField prints a field, padded, then its suffix.
	ItemField ItemKind = iota
	// ItemLiteral prints only its suffix (text before the first % of a -o spec, or an
	// unknown field that Slurm echoes).
	ItemLiteral
)

// Item is one element of a parsed format.
type Item struct {
	Kind ItemKind
	// Field indexes Table.Fields (ItemField only).
	Field int
	// Width is the column width: 0 means no padding and no truncation.
	Width int
	// Right is set by "." (right-justify).
	Right bool
	// Suffix is the text printed after the field (literal text of the spec).
	Suffix string
}

// Format is a parsed specification bound to its table.
type Format[R any] struct {
	Table *Table[R]
	Items []Item
}

// Parse parses a -o specification ("%.18i %.9P %R"). Unknown letters do not fail: as in
// Slurm they are echoed literally ("%" plus the token) and a message is returned for the
// command to print on stderr (the command still exits 0). "%all" (any case) selects every
// letter of the table separated by "|".
func (t *Table[R]) Parse(spec string) (*Format[R], []string) {
	f := &Format[R]{Table: t}
	var msgs []string
	all := false
	body := spec
	if i := strings.IndexByte(spec, '%'); i != 0 {
		// Text before the first '%' (all of it when there is none) is printed first.
		if i < 0 {
			i = len(spec)
		}
		f.Items = append(f.Items, Item{Kind: ItemLiteral, Suffix: spec[:i]})
		body = spec[i:]
	}
	if equalFold(spec, "%all") {
		body = t.allSpec()
		all = true
	}
	// strtok: consecutive '%' delimit nothing, so "%%" is not an escape.
	for _, tok := range strings.Split(body, "%") {
		if tok == "" {
			continue
		}
		it, letter := parseToken(tok)
		idx := t.ByLetter(letter)
		if idx >= 0 {
			it.Field = idx
			f.Items = append(f.Items, it)
			continue
		}
		if all {
			continue
		}
		f.Items = append(f.Items, Item{Kind: ItemLiteral, Width: it.Width, Right: it.Right, Suffix: "%" + tok})
		l := cLetter(letter)
		if t.RawLetterInMessage {
			l = string([]byte{letter})
		}
		msgs = append(msgs, fmt.Sprintf(t.InvalidLetter, l))
	}
	return f, msgs
}

// cLetter renders a letter as C's "%c" does inside a message: NUL ends the string.
func cLetter(c byte) string {
	if c == 0 {
		return ""
	}
	return string([]byte{c})
}

// parseToken splits "[.][width]letter[suffix]".
func parseToken(tok string) (Item, byte) {
	it := Item{Kind: ItemField}
	i := 0
	if i < len(tok) && tok[i] == '.' {
		it.Right = true
		i++
	}
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		if it.Width < MaxWidth {
			it.Width = it.Width*10 + int(tok[i]-'0')
		}
		i++
	}
	if it.Width > MaxWidth {
		it.Width = MaxWidth
	}
	var letter byte
	if i < len(tok) {
		letter = tok[i]
		i++
	}
	it.Suffix = tok[i:]
	return it, letter
}

func (t *Table[R]) allSpec() string {
	var lower, upper []string
	for c := byte('a'); c <= 'z'; c++ {
		lower = append(lower, "%"+string(c))
	}
	for c := byte('A'); c <= 'Z'; c++ {
		upper = append(upper, "%"+string(c)+t.AllUpperSuffix)
	}
	return strings.Join(lower, "|") + "|" + strings.Join(upper, "|")
}

// ParseLong parses a -O specification ("name[:[.]width][suffix],..."). Names are matched
// case-insensitively; a name without ":" gets width 20, left-justified. An unknown name
// prints only its suffix and yields a message for stderr, as in Slurm.
func (t *Table[R]) ParseLong(spec string) (*Format[R], []string) {
	f := &Format[R]{Table: t}
	var msgs []string
	for _, tok := range strings.Split(spec, ",") {
		if tok == "" {
			continue
		}
		name, it := parseLongToken(tok)
		if t.LongAll && equalFold(name, "all") {
			sub, m := t.Parse("%all")
			f.Items = append(f.Items, sub.Items...)
			msgs = append(msgs, m...)
			continue
		}
		idx := t.ByName(name)
		if idx < 0 {
			it.Kind = ItemLiteral
			f.Items = append(f.Items, it)
			msgs = append(msgs, fmt.Sprintf(t.InvalidName, name))
			continue
		}
		it.Field = idx
		f.Items = append(f.Items, it)
	}
	return f, msgs
}

func parseLongToken(tok string) (string, Item) {
	it := Item{Kind: ItemField}
	colon := strings.IndexByte(tok, ':')
	if colon < 0 {
		it.Width = 20
		return tok, it
	}
	name, rest := tok[:colon], tok[colon+1:]
	if strings.HasPrefix(rest, ".") {
		it.Right = true
		rest = rest[1:]
	}
	w, end := strtol(rest)
	it.Width = w
	it.Suffix = rest[end:]
	return name, it
}

// strtol parses a base-10 integer as C's strtol does (leading white space, optional sign),
// returning the value (clamped to ±MaxWidth) and the index after it; 0 and 0 when there are
// no digits.
func strtol(s string) (int, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	v := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < MaxWidth {
			v = v*10 + int(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, 0
	}
	if v > MaxWidth {
		v = MaxWidth
	}
	if neg {
		v = -v
	}
	return v, i
}
