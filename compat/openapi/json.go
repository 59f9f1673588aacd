package openapi

import (
	"strconv"
	"strings"
)

// JSON serializes v as Slurm's serializer_json plugin does with DATA_SER_FLAGS_PRETTY:
// json-c's JSON_C_TO_STRING_SPACED|JSON_C_TO_STRING_PRETTY layout (two-space indent, an
// empty list or dictionary still opened on its own line, "/" escaped as "\/"), with no
// newline after the closing brace.
func JSON(v *Value) string {
	var b strings.Builder
	writeJSON(&b, v, 0)
	return b.String()
}

func jsonIndent(b *strings.Builder, level int) {
	for i := 0; i < level; i++ {
		b.WriteString("  ")
	}
}

func writeJSON(b *strings.Builder, v *Value, level int) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.B))
	case Int:
		b.WriteString(strconv.FormatInt(v.I, 10))
	case Float:
		b.WriteString(jsonDouble(v.F))
	case String, NullString:
		// serializer_json turns a NULL string into "".
		writeJSONString(b, v.S)
	case Dict:
		b.WriteString("{\n")
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteString(",\n")
			}
			jsonIndent(b, level+1)
			writeJSONString(b, k)
			b.WriteString(": ")
			writeJSON(b, v.Vals[i], level+1)
		}
		if len(v.Keys) > 0 {
			b.WriteString("\n")
		}
		jsonIndent(b, level)
		b.WriteString("}")
	case List:
		b.WriteString("[\n")
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(",\n")
			}
			jsonIndent(b, level+1)
			writeJSON(b, it, level+1)
		}
		if len(v.Items) > 0 {
			b.WriteString("\n")
		}
		jsonIndent(b, level)
		b.WriteString("]")
	}
}

// jsonDouble formats a double as json-c does: "%.17g", with ".0" added when the result
// reads as an integer.
func jsonDouble(f float64) string {
	s := strconv.FormatFloat(f, 'g', 17, 64)
	switch s {
	case "NaN":
		return "NaN"
	case "+Inf":
		return "Infinity"
	case "-Inf":
		return "-Infinity"
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

const lowerHex = "0123456789abcdef"

// writeJSONString quotes s as json-c's json_escape_str does: the two-character escapes for
// " \ / \b \f \n \r \t, \u00xx (lower-case hex) for other control characters, and every
// other byte (DEL and UTF-8 included) as it is.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(lowerHex[c>>4])
				b.WriteByte(lowerHex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}
