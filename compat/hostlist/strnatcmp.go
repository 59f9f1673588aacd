package hostlist

// strnatcmp compares two prefixes in "natural" order the way Slurm's copy of Martin Pool's
// strnatcmp does: runs of digits compare by value (runs starting with 0 compare left-aligned),
// white space is skipped, and other bytes compare as C's signed char.

func natAt(s string, i int) int8 {
	if i < len(s) {
		return int8(s[i])
	}
	return 0
}

func natDigit(c int8) bool { return c >= '0' && c <= '9' }

func natSpace(c int8) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func natCompareRight(a string, ai int, b string, bi int) int {
	bias := 0
	for ; ; ai, bi = ai+1, bi+1 {
		ca, cb := natAt(a, ai), natAt(b, bi)
		switch {
		case !natDigit(ca) && !natDigit(cb):
			return bias
		case !natDigit(ca):
			return -1
		case !natDigit(cb):
			return 1
		case ca < cb:
			if bias == 0 {
				bias = -1
			}
		case ca > cb:
			if bias == 0 {
				bias = 1
			}
		}
	}
}

func natCompareLeft(a string, ai int, b string, bi int) int {
	for ; ; ai, bi = ai+1, bi+1 {
		ca, cb := natAt(a, ai), natAt(b, bi)
		switch {
		case !natDigit(ca) && !natDigit(cb):
			return 0
		case !natDigit(ca):
			return -1
		case !natDigit(cb):
			return 1
		case ca < cb:
			return -1
		case ca > cb:
			return 1
		}
	}
}

func strnatcmp(a, b string) int {
	if a == b {
		return 0
	}
	ai, bi := 0, 0
	for {
		ca, cb := natAt(a, ai), natAt(b, bi)
		for natSpace(ca) {
			ai++
			ca = natAt(a, ai)
		}
		for natSpace(cb) {
			bi++
			cb = natAt(b, bi)
		}
		if natDigit(ca) && natDigit(cb) {
			var r int
			if ca == '0' || cb == '0' {
				r = natCompareLeft(a, ai, b, bi)
			} else {
				r = natCompareRight(a, ai, b, bi)
			}
			if r != 0 {
				return r
			}
		}
		if ca == 0 && cb == 0 {
			return 0
		}
		if ca < cb {
			return -1
		}
		if ca > cb {
			return 1
		}
		ai++
		bi++
	}
}
