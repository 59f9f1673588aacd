package format

// Cell is one rendered value before padding: the text, and whether Slurm prints it whole
// even when it is wider than a right-justified column (node lists, durations).
type Cell struct {
	Text  string
	NoCut bool
}

// Str returns a Cell that is cut to the column width like most of Slurm's values.
func Str(s string) Cell { return Cell{Text: s} }

// Uncut returns a Cell that a right-justified column does not cut (Slurm's cut_output=false).
func Uncut(s string) Cell { return Cell{Text: s, NoCut: true} }

// Field is one column a command can print for rows of type R.
type Field[R any] struct {
	// Letter is the -o letter ('i' for %i); 0 for fields reachable only through -O.
	Letter byte
	// Names are the -O names, matched case-insensitively in full.
	Names []string
	// PrefixNames are -O names Slurm matches by their leading part: any -O name that starts
	// with one of them selects the field (squeue's "numtask" selects numtasks).
	PrefixNames []string
	// Title is the header text.
	Title string
	// TitleNoCut keeps a right-justified header whole when it is wider than the column.
	TitleNoCut bool
	// Value renders the field for one row.
	Value func(R) Cell
	// Sized, when set, replaces Value for fields whose text depends on the column width
	// (sinfo's default-partition "*", which overwrites the last character that fits).
	Sized func(row R, width int) Cell
}

// Dialect selects the few places where squeue's and sinfo's printing differ.
type Dialect int

const (
	// DialectSqueue: a negative -O width prints the value followed by one space.
	DialectSqueue Dialect = iota
	// DialectSinfo: a negative width left-justifies a right-justified column to its
	// magnitude, and leaves a left-justified value whole.
	DialectSinfo
)

// Table is the set of fields one command view offers (squeue jobs, squeue steps, sinfo).
type Table[R any] struct {
	// Command is the program name used in error messages ("squeue").
	Command string
	Fields  []Field[R]
	Dialect Dialect
	// InvalidLetter formats the message for an unknown -o letter; %s is the letter.
	// A message starting with Command+": " is printed by Slurm's error() routine.
	InvalidLetter string
	// RawLetterInMessage prints the letter byte as is, NUL included, as sinfo's
	// fprintf("%c") does; squeue's error() stops at a NUL instead.
	RawLetterInMessage bool
	// InvalidName formats the message for an unknown -O name; %s is the name.
	InvalidName string
	// AllUpperSuffix is what `%all` puts after each upper-case letter besides "|"
	// (sinfo adds a space; squeue nothing).
	AllUpperSuffix string
	// LongAll, when set, lets the -O name "all" stand for `-o %all` (sinfo).
	LongAll bool
}

// ByLetter returns the index of the field with the given -o letter, or -1.
func (t *Table[R]) ByLetter(c byte) int {
	if c == 0 {
		return -1
	}
	for i := range t.Fields {
		if t.Fields[i].Letter == c {
			return i
		}
	}
	return -1
}

// ByName returns the index of the field an -O name selects, or -1, trying the fields in
// table order as Slurm tries its names.
func (t *Table[R]) ByName(name string) int {
	for i := range t.Fields {
		for _, n := range t.Fields[i].Names {
			if equalFold(n, name) {
				return i
			}
		}
		for _, p := range t.Fields[i].PrefixNames {
			if len(name) >= len(p) && equalFold(name[:len(p)], p) {
				return i
			}
		}
	}
	return -1
}

// equalFold compares ASCII case-insensitively, as xstrcasecmp does (no Unicode folding).
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
