package conf

import (
	"fmt"
	"math"
	"strings"
)

// Infinite values as Slurm stores UNLIMITED/INFINITE for each width.
const (
	Infinite16 = math.MaxUint16
	Infinite32 = math.MaxUint32
	Infinite64 = math.MaxUint64
)

// strtoul mimics C's strtoul(value, &end, 0): optional sign, base from the prefix (0x hex,
// 0 octal, else decimal). It returns the number, the unparsed tail, and overflow.
func strtoul(s string) (n uint64, tail string, overflow bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && hexVal(s[i+2]) < 16 {
		base = 16
		i += 2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	start := i
	for i < len(s) {
		d := hexVal(s[i])
		if d >= base {
			break
		}
		if n > (math.MaxUint64-d)/base {
			overflow = true
		}
		n = n*base + d
		i++
	}
	if i == start {
		return 0, s, false // no conversion: C sets end to the start of the string
	}
	if overflow {
		n = math.MaxUint64
	} else if neg {
		n = -n
	}
	return n, s[i:], overflow
}

func hexVal(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

func isUnlimited(v string) bool {
	return strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE")
}

// parseUint checks value as Slurm's s_p_handle_uint16/32/64 do and returns Slurm's error text.
func parseUint(kind Kind, key, value string) (uint64, error) {
	n, tail, overflow := strtoul(value)
	if kind != KindUint16 && (strings.HasPrefix(tail, "k") || strings.HasPrefix(tail, "K")) {
		n *= 1024
		tail = tail[1:]
	}
	var max uint64
	switch kind {
	case KindUint16:
		max = math.MaxUint16
	case KindUint32:
		max = math.MaxUint32
	default:
		max = math.MaxUint64
	}
	if tail != "" {
		if isUnlimited(value) {
			return max, nil
		}
		if kind == KindUint16 {
			return 0, fmt.Errorf("%s value \"%s\" is not a valid number", key, value)
		}
		return 0, fmt.Errorf("%s value (%s) is not a valid number", key, value)
	}
	if overflow {
		return 0, fmt.Errorf("%s value (%s) is out of range", key, value)
	}
	if strings.HasPrefix(value, "-") {
		return 0, fmt.Errorf("%s value (%s) is less than zero", key, value)
	}
	if n > max {
		if kind == KindUint16 {
			return 0, fmt.Errorf("%s value (%s) is greater than 65535", key, value)
		}
		return 0, fmt.Errorf("%s value (%s) is greater than 4294967295", key, value)
	}
	return n, nil
}

// parseBool accepts what Slurm's s_p_handle_boolean accepts.
func parseBool(key, value string) (bool, error) {
	switch strings.ToLower(value) {
	case "yes", "up", "true", "1":
		return true, nil
	case "no", "down", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("\"%s\" is not a valid option for \"%s\"", value, key)
}

// checkValue validates value for a key of the given kind.
func checkValue(kind Kind, key, value string) error {
	switch kind {
	case KindUint16, KindUint32, KindUint64:
		_, err := parseUint(kind, key, value)
		return err
	case KindBool:
		_, err := parseBool(key, value)
		return err
	}
	return nil
}
