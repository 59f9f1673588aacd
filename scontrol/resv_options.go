package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// The options of `scontrol create reservation` and `scontrol update reservation` (Slurm's
// _parse_res_options, parse_resv_flags and the state_control parsers it calls), read into
// Slurm's own terms first: scontrol_create_res checks which strings were given even when
// empty, and times the way Slurm sends them, neither of which the wire form can say.

// noTime is Slurm's (time_t)NO_VAL: a start or end time not given. A time that parses to
// that very second counts as not given too, as in Slurm.
const noTime = int64(wire.NoVal)

// Errno texts a failed parse leaves for "slurm_update error": the C errno the parsers set
// (Slurm prints whatever errno holds), "No error" when none did.
const (
	errnoTextNone      = "No error"
	errnoTextRange     = "Numerical result out of range"
	errnoTextTimeValue = "Invalid time specified"
)

// resvRequest is a reservation request as scontrol reads it (Slurm's resv_desc_msg_t after
// slurm_init_resv_desc_msg): strings not given are nil, times noTime, numbers NoVal, flags
// NoVal64, counts nil.
type resvRequest struct {
	name, accounts, groups, users, burstBuffer, features, licenses, partition, nodeList *string

	startTime, endTime                            int64
	duration, maxStartDelay, purgeCompTime, watts uint32
	flags                                         uint64
	nodeCnt, coreCnt                              []uint32
}

// newResvRequest is a request with nothing given (slurm_init_resv_desc_msg).
func newResvRequest() *resvRequest {
	return &resvRequest{startTime: noTime, endTime: noTime, duration: wire.NoVal, maxStartDelay: wire.NoVal,
		purgeCompTime: wire.NoVal, watts: wire.NoVal, flags: wire.NoVal64}
}

// addFlags sets bits as Slurm does: over NO_VAL64 when no flag was given yet.
func (r *resvRequest) addFlags(f uint64) {
	if r.flags == wire.NoVal64 {
		r.flags = f
	} else {
		r.flags |= f
	}
}

// resvEnv is what reading the options needs from outside scontrol's arguments: the time
// parse_time reads relative times against, whether the select plugin counts cores (CoreCnt
// needs it), and whether the cluster knows a TRES by name (TRES= checks each). The last two
// are functions so slurm.conf is read only when an option needs it.
type resvEnv struct {
	now       time.Time
	coreCntOK func() bool
	tresKnown func(name string) bool
}

// resvParseError is why the options were refused: the stderr lines, in their final form,
// and the errno text Slurm's "slurm_update error" line shows after them.
type resvParseError struct {
	lines []string
	errno string
}

// resvParser holds one parse's state; errno follows the C errno the parsers would leave.
type resvParser struct {
	r     *resvRequest
	env   resvEnv
	msg   string // "No reservation created." or "No reservation update."
	errno string
}

// fail is a refusal with lines and the errno the parse has left so far.
func (p *resvParser) fail(lines ...string) *resvParseError {
	return &resvParseError{lines: lines, errno: p.errno}
}

// scontrolError is a line as Slurm's error() prints it for scontrol.
func scontrolError(format string, a ...any) string {
	return "scontrol: error: " + fmt.Sprintf(format, a...)
}

// parseResvOptions reads the options as Slurm's _parse_res_options does, in its order (which
// decides what an abbreviation means), with its messages; msg ends most of them.
func parseResvOptions(args []string, msg string, env resvEnv) (*resvRequest, *resvParseError) {
	p := &resvParser{r: newResvRequest(), env: env, msg: msg, errno: errnoTextNone}
	for _, arg := range args {
		if e := p.option(arg); e != nil {
			return nil, e
		}
	}
	return p.r, nil
}

// option reads one argument.
func (p *resvParser) option(arg string) *resvParseError {
	r := p.r
	eq := strings.IndexByte(arg, '=')
	if eq < 0 {
		switch {
		case keywordIs(arg, "res", 3):
			return nil // the entity's own word ("reservation"), and anything else so spelt
		case abbrev(arg, "Skip", 2):
			// Slurm compares a length it never set here, so that which abbreviations it takes
			// varies from run to run; "Skip" itself always works, and so it does here, with
			// any abbreviation of two letters or more.
			r.addFlags(wire.ResvSkip)
			return nil
		}
		return p.fail(scontrolError("Misformatted parameter '%s', most options have a parameter after '='.  %s", arg, p.msg))
	}
	tagLen := eq
	var sign byte
	if eq > 0 && (arg[eq-1] == '+' || arg[eq-1] == '-') {
		sign = arg[eq-1]
		tagLen--
	}
	val := arg[eq+1:]
	// Slurm compares the whole argument, so a keyword longer than the tag meets its '='.
	is := func(keyword string, min int) bool { return keywordIs(arg, keyword, max(tagLen, min)) }
	list := func(dst **string) *resvParseError {
		if *dst != nil {
			return p.fail(scontrolError("Parameter %s specified more than once", arg))
		}
		v := val
		if sign != 0 {
			v, sign = plusMinus(sign, val), 0
		}
		*dst = &v
		return nil
	}
	str := func(dst **string) { v := val; *dst = &v }
	var err *resvParseError
	switch {
	case is("Accounts", 1):
		err = list(&r.accounts)
	case is("Flags", 2):
		flags := val
		if sign != 0 {
			flags, sign = plusMinus(sign, val), 0
		}
		f, ok := p.parseResvFlags(flags)
		if !ok {
			return p.fail(scontrolError("Error parsing flags %s.  %s", flags, p.msg))
		}
		r.addFlags(f)
	case is("Groups", 1):
		err = list(&r.groups)
	case is("Users", 1):
		err = list(&r.users)
	case is("ReservationName", 1):
		str(&r.name)
	case is("BurstBuffer", 2):
		str(&r.burstBuffer)
	case is("StartTime", 2):
		t, e := p.parseTime(val, arg, "start")
		if e != nil {
			return e
		}
		r.startTime = t
	case is("EndTime", 1):
		t, e := p.parseTime(val, arg, "end")
		if e != nil {
			return e
		}
		r.endTime = t
	case is("Duration", 1):
		p.noteOverflow(val)
		m, e := slurmtime.ParseTimeLimit(val)
		if e != nil || int32(m) < 0 && m != wire.Infinite {
			return p.fail(scontrolError("Invalid duration %s.  %s", arg, p.msg))
		}
		r.duration = m
		switch sign {
		case '+':
			r.addFlags(wire.ResvDurPlus)
		case '-':
			r.addFlags(wire.ResvDurMinus)
		}
		sign = 0
	case is("MaxStartDelay", 2):
		p.noteOverflow(val)
		s, e := slurmtime.ParseTimeLimitSecs(val)
		if e != nil || int32(s) < 0 {
			return p.fail(scontrolError("Invalid duration %s.  %s", arg, p.msg))
		}
		r.maxStartDelay = s
	case is("NodeCnt", 5), is("NodeCount", 5):
		counts, over, ok := parseResvNodeCnt(val)
		if over {
			p.errno = errnoTextRange
		}
		if !ok {
			return p.fail(scontrolError("Invalid node count %s", val))
		}
		r.nodeCnt = counts
	case is("CoreCnt", 5), is("CoreCount", 5), is("CPUCnt", 5), is("CPUCount", 5):
		if !p.env.coreCntOK() {
			return p.fail(scontrolError("%s", coreCntUnsupported))
		}
		counts, over, ok := parseResvCoreCnt(val)
		if over {
			p.errno = errnoTextRange
		}
		if !ok {
			return p.fail(scontrolError("Invalid core count %s", val))
		}
		r.coreCnt = counts
	case is("Nodes", 5):
		str(&r.nodeList)
	case is("Features", 2):
		str(&r.features)
	case is("Licenses", 2):
		str(&r.licenses)
	case is("PartitionName", 1):
		str(&r.partition)
	case is("TRES", 1):
		if line := p.parseTRES(val); line != "" {
			return p.fail(scontrolError("%s", line))
		}
	case is("Watts", 1):
		w, over, ok := parseResvWatts(val)
		if over {
			p.errno = errnoTextRange
		}
		if !ok {
			return p.fail(scontrolError("Invalid Watts value: %s", val))
		}
		r.watts = w
	default:
		return p.fail(scontrolError("Unknown parameter %s.  %s", arg, p.msg))
	}
	if err != nil {
		return err
	}
	if sign != 0 {
		return p.fail(scontrolError("The +=/-= notation is not supported when updating %s.  %s", arg[:tagLen], p.msg))
	}
	return nil
}

// parseTime is parse_time for StartTime= or EndTime=: its own line on stderr, then
// scontrol's, when the time is refused. "" reads as 0, Slurm's epoch, as there.
func (p *resvParser) parseTime(val, arg, which string) (int64, *resvParseError) {
	t, err := slurmtime.ParseTime(val, p.env.now)
	if err != nil {
		p.errno = errnoTextTimeValue
		return 0, p.fail(err.Error(), scontrolError("Invalid %s time %s.  %s", which, arg, p.msg))
	}
	if t.IsZero() {
		return 0, nil
	}
	return t.Unix(), nil
}

// noteOverflow records the ERANGE time_str2secs leaves behind (Slurm reports it later, in
// "slurm_update error"): glibc's sscanf sets it when a number overflows a C long, and puts
// back the errno it saw at the end of the input when it then looks for more.
func (p *resvParser) noteOverflow(s string) {
	if _, err := slurmtime.ParseTimeLimitSecs(s); err != nil || s == "-1" {
		return // refused before sscanf, or never scanned
	}
	if strings.EqualFold(s, "INFINITE") || strings.EqualFold(s, "UNLIMITED") {
		return
	}
	seps := "::" // "%d:%d:%d", or "%d-%d:%d:%d" when there is a '-'
	if strings.IndexByte(s, '-') >= 0 {
		seps = "-::"
	}
	over := false
	for i, n := 0, 0; ; n++ {
		j := i
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			break
		}
		if k == len(s) && n < len(seps) {
			break // the end was met before this number's conversion, and restored after it
		}
		_, err := strconv.ParseInt(s[i:k], 10, 64)
		over = over || err != nil
		if n == len(seps) || k == len(s) || s[k] != seps[n] {
			break
		}
		i = k + 1
	}
	if over {
		p.errno = errnoTextRange
	}
}

// plusMinus is Slurm's _process_plus_minus: "a,b" with '+' becomes "+a,+b".
func plusMinus(sign byte, s string) string {
	return string(sign) + strings.ReplaceAll(s, ",", ","+string(sign))
}

// coreCntUnsupported is Slurm's refusal of CoreCnt (or TRES=cpu=) when the select plugin
// does not count cores.
const coreCntUnsupported = "CoreCnt or CPUCnt is only supported when SelectType includes select/cons_res or " +
	"SelectTypeParameters includes OTHER_CONS_RES on a Cray."

// parseResvFlags is Slurm's parse_resv_flags: comma-separated names, each abbreviated as far
// as its keyword allows, a leading + or - switching to adding or removing (and staying so
// for the names after). PURGE_COMP=time sets the purge time. ok is false when a name is
// unknown or not allowed with its sign.
func (p *resvParser) parseResvFlags(s string) (flags uint64, ok bool) {
	const (
		opNew = iota
		opAdd
		opRem
	)
	op := opNew
	for i := 0; i < len(s); {
		switch s[i] {
		case '+':
			op = opAdd
			i++
		case '-':
			op = opRem
			i++
		}
		cur := s[i:]
		n := 0
		for n < len(cur) && cur[n] != ',' && cur[n] != '=' {
			n++
		}
		is := func(keyword string, min int) bool { return keywordIs(cur, keyword, max(n, min)) }
		pick := func(on, off uint64) {
			if op == opRem {
				flags |= off
			} else {
				flags |= on
			}
		}
		switch {
		case is("Maintenance", 3):
			pick(wire.ResvMaint, wire.ResvNoMaint)
		case is("Overlap", 1) && op != opRem:
			flags |= wire.ResvOverlap
		case is("Flex", 1):
			pick(wire.ResvFlex, wire.ResvNoFlex)
		case is("Ignore_Jobs", 1):
			pick(wire.ResvIgnoreJobs, wire.ResvNoIgnoreJobs)
		case is("Hourly", 1):
			pick(wire.ResvHourly, wire.ResvNoHourly)
		case is("Daily", 1):
			pick(wire.ResvDaily, wire.ResvNoDaily)
		case is("Weekday", 1):
			pick(wire.ResvWeekday, wire.ResvNoWeekday)
		case is("Weekend", 1):
			pick(wire.ResvWeekend, wire.ResvNoWeekend)
		case is("Weekly", 1):
			pick(wire.ResvWeekly, wire.ResvNoWeekly)
		case is("Any_Nodes", 1), is("License_Only", 1):
			pick(wire.ResvAnyNodes, wire.ResvNoAnyNodes)
		case is("Static_Alloc", 1):
			pick(wire.ResvStatic, wire.ResvNoStatic)
		case is("Part_Nodes", 2):
			pick(wire.ResvPartNodes, wire.ResvNoPartNodes)
		case is("magnetic", 3), is("promiscuous", 2):
			pick(wire.ResvMagnetic, wire.ResvNoMagnetic)
		case is("PURGE_COMP", 2):
			if n < len(cur) && cur[n] == '=' {
				end := n + 1
				for end < len(cur) && cur[end] != ',' {
					end++
				}
				p.noteOverflow(cur[n+1 : end])
				secs, err := slurmtime.ParseTimeLimitSecs(cur[n+1 : end])
				if err != nil {
					secs = wire.NoVal // time_str2secs's "invalid", stored as it is
				}
				p.r.purgeCompTime = secs
				n = end
				if n < len(cur) {
					n++ // past the comma; one more is skipped below, as in Slurm
				}
			}
			pick(wire.ResvPurgeComp, wire.ResvNoPurgeComp)
		case is("First_Cores", 1) && op != opRem:
			flags |= wire.ResvFirstCores
		case is("Time_Float", 1) && op == opNew:
			flags |= wire.ResvTimeFloat
		case is("Replace", 1) && op != opRem:
			flags |= wire.ResvReplace
		case is("Replace_Down", 8) && op != opRem:
			flags |= wire.ResvReplaceDown
		case is("NO_HOLD_JOBS_AFTER_END", 1) && op != opRem:
			flags |= wire.ResvNoHoldJobs
		default:
			return 0, false
		}
		i += n
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	return flags, true
}

// strtok splits s at sep as C's strtok does: empty fields vanish.
func strtok(s string, sep byte) []string {
	return strings.FieldsFunc(s, func(c rune) bool { return c == rune(sep) })
}

// parseResvNodeCnt is Slurm's parse_resv_nodecnt: comma-separated counts, each a C long
// with an optional k or m (binary) suffix; over is C's ERANGE.
func parseResvNodeCnt(val string) (counts []uint32, over, ok bool) {
	for _, tok := range strtok(val, ',') {
		n, rest, o := strtoll(tok)
		over = over || o
		if n < 0 || n == math.MaxInt64 {
			return nil, over, false
		}
		c := uint32(n)
		switch {
		case rest != "" && (rest[0] == 'k' || rest[0] == 'K'):
			c *= 1024
		case rest != "" && (rest[0] == 'm' || rest[0] == 'M'):
			c *= 1024 * 1024
		case rest != "":
			return nil, over, false
		}
		counts = append(counts, c)
	}
	return counts, over, true
}

// parseResvCoreCnt is Slurm's state_control_parse_resv_corecnt: comma-separated C longs,
// each wholly a number (a sign is allowed, and an overflow saturates).
func parseResvCoreCnt(val string) (counts []uint32, over, ok bool) {
	for _, tok := range strtok(val, ',') {
		n, rest, o := strtoll(tok)
		over = over || o
		if rest != "" {
			return nil, over, false
		}
		counts = append(counts, uint32(n))
	}
	return counts, over, true
}

// parseResvWatts is Slurm's state_control_parse_resv_watts: n/a or none (0), INFINITE, or a
// C unsigned long with an optional k or m (decimal) suffix, only whose first letter counts.
func parseResvWatts(val string) (watts uint32, over, ok bool) {
	switch {
	case strings.EqualFold(val, "n/a"), strings.EqualFold(val, "none"):
		return 0, false, true
	case strings.EqualFold(val, "INFINITE"):
		return wire.Infinite, false, true
	}
	n, rest, over := strtoul64(val)
	w := uint32(n)
	switch {
	case rest != "" && (rest[0] == 'k' || rest[0] == 'K'):
		w *= 1000
	case rest != "" && (rest[0] == 'm' || rest[0] == 'M'):
		w *= 1000000
	case rest != "":
		return 0, over, false
	}
	return w, over, true
}

// strtoul64 is C's strtoul for a 64-bit unsigned long: leading blanks and a sign (a minus
// negates modulo 2^64), then digits; an overflow gives ULONG_MAX and over (C's ERANGE);
// rest is what follows, or s itself when no digit was read.
func strtoul64(s string) (n uint64, rest string, over bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	i := 0
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		d := uint64(t[i] - '0')
		if n > (math.MaxUint64-d)/10 {
			over = true
		}
		n = n*10 + d
	}
	if i == 0 {
		return 0, s, false
	}
	switch {
	case over:
		n = math.MaxUint64
	case neg:
		n = -n
	}
	return n, t[i:], over
}

// defaultTRES are the TRES every Slurm cluster knows (slurm.conf's AccountingStorageTRES
// adds to them).
var defaultTRES = []string{"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"}

// parseTRES is Slurm's state_control_parse_resv_tres: TRES=cpu=N[,N...],node=N[,N...],
// license/NAME=N,bb/NAME=N, turned into the core counts, node counts, licenses and burst
// buffers they stand for (Slurm's scontrol never sends TRES itself). It returns the error
// line, "" when the value is taken.
func (p *resvParser) parseTRES(val string) string {
	r := p.r
	var licenses, bb, cores, nodes []string
	toks := strtok(val, ',')
	for i := 0; i < len(toks); {
		tok := toks[i]
		compound, value, shown := splitTRES(tok)
		if compound == "" || value == "" {
			return fmt.Sprintf("invalid TRES '%s'", shown)
		}
		typ, name := compound, "(null)" // Slurm prints its NULL name so
		if strings.IndexByte(compound, '/') >= 0 {
			typ, name = splitOnce(compound, '/')
		}
		if !p.env.tresKnown(compound) {
			return fmt.Sprintf("couldn't identify configured TRES '%s'", compound)
		}
		switch {
		case strings.EqualFold(typ, "license"):
			licenses = append(licenses, name+":"+value)
			i++
		case strings.EqualFold(typ, "bb"):
			bb = append(bb, name+":"+value)
			i++
		case strings.EqualFold(typ, "cpu"):
			// The counts after cpu= run on over the following plain numbers.
			if !allDigits(value) {
				return fmt.Sprintf("invalid TRES cpu value '%s'", value)
			}
			cores = append(cores, value)
			for i++; i < len(toks) && allDigits(toks[i]); i++ {
				cores = append(cores, toks[i])
			}
		case strings.EqualFold(typ, "node"):
			nodes = append(nodes, value)
			i++
		default:
			return fmt.Sprintf("TRES type '%s' not supported with reservations", compound)
		}
	}
	if len(cores) > 0 {
		if !p.env.coreCntOK() {
			return coreCntUnsupported
		}
		joined := strings.Join(cores, ",")
		counts, over, ok := parseResvCoreCnt(joined)
		if over {
			p.errno = errnoTextRange
		}
		if !ok {
			return "Invalid TRES core count " + joined
		}
		r.coreCnt = counts
	}
	if len(nodes) > 0 {
		joined := strings.Join(nodes, ",")
		counts, over, ok := parseResvNodeCnt(joined)
		if over {
			p.errno = errnoTextRange
		}
		if !ok {
			return "Invalid TRES node count " + joined
		}
		r.nodeCnt = counts
	}
	if len(licenses) > 0 {
		v := strings.Join(licenses, ",")
		r.licenses = &v
	}
	if len(bb) > 0 {
		v := strings.Join(bb, ",")
		r.burstBuffer = &v
	}
	return ""
}

// splitTRES splits one TRES item at its '=' as strtok_r does: compound is the name (leading
// '='s skipped), value what follows its '=', shown the item as Slurm's message prints it
// (cut at that '=', which strtok_r overwrote).
func splitTRES(tok string) (compound, value, shown string) {
	i := 0
	for i < len(tok) && tok[i] == '=' {
		i++
	}
	if i == len(tok) {
		return "", "", tok
	}
	j := strings.IndexByte(tok[i:], '=')
	if j < 0 {
		return tok[i:], "", tok
	}
	return tok[i : i+j], tok[i+j+1:], tok[:i+j]
}

// splitOnce is strtok_r's first token of s at sep and the rest after its separator.
func splitOnce(s string, sep byte) (tok, rest string) {
	i := 0
	for i < len(s) && s[i] == sep {
		i++
	}
	j := i
	for j < len(s) && s[j] != sep {
		j++
	}
	if j < len(s) {
		rest = s[j+1:]
	}
	return s[i:j], rest
}

// allDigits says whether s is a non-empty run of decimal digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// checkCreate is scontrol_create_res's checks of the parsed options, in its order, with the
// defaults it fills in (PART_NODES and Nodes=ALL for a whole partition); it returns the
// error line, "" when the request may be sent.
func (r *resvRequest) checkCreate() string {
	const tail = "  No reservation created."
	empty := func(s *string) bool { return s == nil || *s == "" }
	isAll := func(s *string) bool { return s != nil && strings.EqualFold(*s, "ALL") }
	counted := len(r.nodeCnt) > 0 && r.nodeCnt[0] != 0
	switch {
	case r.startTime == noTime:
		return scontrolError("A start time must be given." + tail)
	case r.endTime == noTime && r.duration == wire.NoVal:
		return scontrolError("An end time or duration must be given." + tail)
	case r.endTime != noTime && r.duration != wire.NoVal && r.startTime+int64(r.duration*60) != r.endTime:
		// duration*60 is C unsigned arithmetic: it wraps, as here.
		return scontrolError("StartTime + Duration does not equal EndTime." + tail)
	case r.startTime > r.endTime && r.endTime != noTime:
		return scontrolError("Start time cannot be after end time." + tail)
	}
	if r.partition != nil && isAll(r.nodeList) {
		r.addFlags(wire.ResvPartNodes)
	}
	if r.flags != wire.NoVal64 && r.flags&wire.ResvPartNodes != 0 && (r.partition == nil || !isAll(r.nodeList)) {
		return scontrolError("PART_NODES flag requires specifying a Partition and ALL nodes." + tail)
	}
	if r.coreCnt == nil && empty(r.burstBuffer) && !counted && empty(r.nodeList) && empty(r.licenses) &&
		r.watts == wire.NoVal {
		if r.partition == nil {
			return scontrolError("CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified." + tail)
		}
		r.addFlags(wire.ResvPartNodes)
		all := "ALL"
		r.nodeList = &all
	}
	switch {
	case empty(r.users) && empty(r.groups) && empty(r.accounts):
		return scontrolError("Either Users/Groups and/or Accounts must be specified." + tail)
	case r.users != nil && r.groups != nil:
		return scontrolError("Users and Groups are mutually exclusive.  You can have one or the other, but not both." + tail)
	}
	// NO_VAL64 has the ANY_NODES bit, so flags not given pass this check, as in Slurm.
	if r.watts != wire.NoVal && (r.flags&wire.ResvAnyNodes == 0 || r.coreCnt != nil || counted ||
		!empty(r.nodeList) || !empty(r.licenses)) {
		return scontrolError("A power reservation must be empty and set the LICENSE_ONLY flag." + tail)
	}
	return ""
}

// desc is the request on the wire. Slurm's node counts are a list its controller sums (up to
// the first 0); the wire carries the sum. A time read as 0 (StartTime= with nothing after
// it) is sent as the epoch's first second: Slurm sends 0 itself and its controller refuses
// it as long past, whereas 0 on the wire means "not given".
func (r *resvRequest) desc() *wire.ResvDesc {
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	t := func(v int64) int64 {
		switch v {
		case noTime:
			return 0
		case 0:
			return 1
		}
		return v
	}
	d := &wire.ResvDesc{
		Name: s(r.name), StartTime: t(r.startTime), EndTime: t(r.endTime), Duration: r.duration,
		Flags: r.flags, PurgeCompTime: r.purgeCompTime, MaxStartDelay: r.maxStartDelay,
		NodeList: s(r.nodeList), Partition: s(r.partition), Users: s(r.users), Groups: s(r.groups),
		Accounts: s(r.accounts), Features: s(r.features), Licenses: s(r.licenses),
		BurstBuffer: s(r.burstBuffer), Watts: r.watts,
	}
	for _, n := range r.nodeCnt {
		if n == 0 {
			break
		}
		d.NodeCnt += n
	}
	if r.coreCnt != nil {
		cores := make([]string, len(r.coreCnt))
		for i, n := range r.coreCnt {
			cores[i] = strconv.FormatUint(uint64(n), 10)
		}
		d.CoreCnt = strings.Join(cores, ",")
	}
	return d
}
