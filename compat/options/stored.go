package options

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// The options a cluster without the matching plugin only stores, shows and exports
// (jobspec.StoredOptions): --network, --contiguous, --mcs-label, --bb/--bbf, --container,
// --power, --cluster-constraint, --prefer, --gpu-bind, --gpu-freq, --ntasks-per-socket,
// --reboot and sbatch's --export-file. Their values are checked here as Slurm 22.05's setters
// check them; whether this cluster's configuration would act on one is the commands' call.

// isStoredOption says whether applyStored handles the option.
func isStoredOption(id string) bool {
	switch id {
	case "network", "contiguous", "mcs-label", "bb", "bbf", "container", "power",
		"cluster-constraint", "prefer", "gpu-bind", "gpu-freq", "ntasks-per-socket", "reboot",
		"export-file":
		return true
	}
	return false
}

// applyStored sets one of the stored options (isStoredOption).
func (a *applier) applyStored(o *Option, val string) error {
	s := &a.js.Stored
	switch o.ID {
	case "network":
		s.Network = val
	case "contiguous":
		s.Contiguous = true
	case "mcs-label":
		s.MCSLabel = val
	case "bb":
		s.BurstBuffer = val
	case "bbf":
		s.BurstBufferFile = val
	case "container":
		s.Container = val
	case "power":
		var warn []string
		s.PowerFlags, warn = ParsePower(val)
		for _, w := range warn {
			a.js.Warnings = append(a.js.Warnings, cmdName(a.cmd)+": error: "+w+"\n")
		}
	case "cluster-constraint":
		s.ClusterFeatures = val
	case "prefer":
		s.Prefer = val
	case "gpu-bind":
		if ok, offending := ValidGPUBind(val); !ok {
			var lines []string
			if offending != "" {
				lines = append(lines, offending)
			}
			return cmdError(a.cmd, 255, append(lines, "Invalid --gpu-bind argument: gpu:"+val)...)
		}
		s.GPUBind = val
	case "gpu-freq":
		if !ValidGPUFreq(val) {
			return cmdError(a.cmd, 255, "Invalid --gpu-freq argument: gpu:"+val)
		}
		s.GPUFreq = val
	case "ntasks-per-socket":
		n, err := parseInt(a.cmd, "--ntasks-per-socket", val)
		if err != nil {
			return err
		}
		s.NTasksPerSocket = n
	case "reboot":
		s.Reboot = true
	case "export-file":
		s.ExportFile = val
	}
	return nil
}

// verifyBurstBuffer is what the commands check of --bb and --bbf once every option is in:
// not both; salloc and srun send --bbf's file as the request, and sbatch splices it into the
// script after its first line, as Slurm 22.05 does.
func (a *applier) verifyBurstBuffer() error {
	s := &a.js.Stored
	if s.BurstBufferFile == "" {
		return nil
	}
	if s.BurstBuffer != "" {
		if a.cmd == Salloc {
			return cmdError(a.cmd, 1, "Cannot specify both --bb and --bbf")
		}
		return cmdError(a.cmd, 1, "Cannot specify both --burst-buffer and --bbf")
	}
	data, err := os.ReadFile(s.BurstBufferFile)
	if err != nil {
		return cmdError(a.cmd, 1, "Invalid --bbf specification")
	}
	if a.cmd == Sbatch {
		a.js.Script = AddToScript(a.js.Script, data)
	} else {
		s.BurstBuffer = string(data)
	}
	s.BurstBufferFile = ""
	return nil
}

// AddToScript puts text into a batch script after its first line when that line is a
// comment (the interpreter line), else before it, ending text with a newline: Slurm's
// run_command_add_to_script, with which sbatch adds --bbf's file.
func AddToScript(script, text []byte) []byte {
	if len(text) == 0 || text[0] == 0 {
		return script
	}
	if i := strings.IndexByte(string(text), 0); i >= 0 {
		text = text[:i] // C string: the file ends at its first NUL
	}
	add := append([]byte(nil), text...)
	if add[len(add)-1] != '\n' {
		add = append(add, '\n')
	}
	if len(script) == 0 {
		return append([]byte(nil), text...)
	}
	if script[0] != '#' {
		return append(add, script...)
	}
	nl := strings.IndexByte(string(script), '\n')
	if nl < 0 {
		out := append(append([]byte(nil), script...), '\n')
		return append(out, add...)
	}
	out := append([]byte(nil), script[:nl+1]...)
	out = append(out, add...)
	return append(out, script[nl+1:]...)
}

// ParsePower reads --power as Slurm's power_flags_id: "level" (any case) in a comma list
// sets jobspec.PowerLevel; every other word is ignored with a warning.
func ParsePower(val string) (flags uint16, warnings []string) {
	for _, tok := range strings.Split(val, ",") {
		switch {
		case tok == "":
		case strings.EqualFold(tok, "level"):
			flags |= jobspec.PowerLevel
		default:
			warnings = append(warnings, fmt.Sprintf("Ignoring unrecognized power option (%s)", tok))
		}
	}
	return flags, warnings
}

// ValidGPUBind checks --gpu-bind as Slurm 22.05's tres_bind_verify_cmdline checks
// "gpu:<val>": an optional "verbose," then closest, map_gpu:<list>, mask_gpu:<list>, none,
// per_task:<n> or single:<n>. Like Slurm it matches closest and none by their first letter,
// and a ";" starts another TRES's binding, of which only gpu exists. offending is the
// error line Slurm prints first for a character a number list cannot hold.
func ValidGPUBind(val string) (ok bool, offending string) {
	return eachGPUSpec(val, validGPUBindOne)
}

// eachGPUSpec checks "gpu:<val>" as Slurm's tres_*_verify_cmdline walk it: split on ";"
// (empty fields skipped, as strtok does), each field "gpu:<spec>" with one accepting spec.
// An empty val is the field "gpu:" with an empty spec.
func eachGPUSpec(val string, one func(string) (bool, string)) (bool, string) {
	for _, tok := range strings.Split("gpu:"+val, ";") {
		if tok == "" {
			continue
		}
		name, spec, found := strings.Cut(tok, ":")
		if !found || name != "gpu" {
			return false, ""
		}
		if ok, offending := one(spec); !ok {
			return false, offending
		}
	}
	return true, ""
}

func validGPUBindOne(arg string) (bool, string) {
	if len(arg) >= 8 && strings.EqualFold(arg[:8], "verbose,") {
		arg = arg[8:]
	}
	hasPrefix := func(p string, n int) bool { return len(arg) >= n && strings.EqualFold(arg[:n], p[:n]) }
	switch {
	case hasPrefix("closest", 1):
		return true, ""
	case hasPrefix("map_gpu:", 8):
		return validNumList(arg[8:], false)
	case hasPrefix("mask_gpu:", 9):
		return validNumList(arg[9:], true)
	case hasPrefix("none", 1):
		return true, ""
	case hasPrefix("per_task:", 9):
		return validNum(arg[9:]), ""
	case hasPrefix("single:", 7):
		return validNum(arg[7:]), ""
	}
	return false, ""
}

// validNum is Slurm's _valid_num: strtol of the text (base 0) must not be negative.
func validNum(s string) bool {
	n, _, _ := strtol(s)
	return n >= 0 && n != 1<<63-1
}

// validNumList is Slurm's _valid_num_list: comma-separated decimal (or hex, "0x" allowed)
// numbers, each optionally followed by "*<count>". A character that is neither a digit nor
// "*" gets Slurm's "Failed to validate" line.
func validNumList(s string, hex bool) (bool, string) {
	base := 10
	if hex {
		base = 16
	}
	for _, tok := range strings.Split(s, ",") {
		if tok == "" {
			continue
		}
		if hex && strings.HasPrefix(tok, "0x") {
			tok = tok[2:]
		}
		for i := 0; i < len(tok); i++ {
			if c := tok[i]; !isDigitIn(rune(c), base) && c != '*' {
				return false, fmt.Sprintf("Failed to validate %s, offending character is %c", tok, c)
			}
		}
		num, count, star := strings.Cut(tok, "*")
		if num != "" {
			if _, err := strconv.ParseUint(num, base, 63); err != nil {
				return false, ""
			}
		}
		if star {
			if n, rest, _ := strtol(count); n < 0 || rest != "" {
				return false, ""
			}
		}
	}
	return true, ""
}

func isDigitIn(c rune, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return true
	case base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		return true
	}
	return false
}

// ValidGPUFreq checks --gpu-freq as tres_freq_verify_cmdline checks "gpu:<val>": a comma
// list of low, medium, high, highm1, a number of MHz, "verbose", or memory=<one of those>.
func ValidGPUFreq(val string) bool {
	ok, _ := eachGPUSpec(val, func(spec string) (bool, string) { return validGPUFreqOne(spec), "" })
	return ok
}

func validGPUFreqOne(arg string) bool {
	if arg == "" {
		return false
	}
	for _, tok := range strings.Split(arg, ",") {
		if tok == "" {
			continue
		}
		if name, v, ok := strings.Cut(tok, "="); ok {
			if name != "memory" || !validFreqValue(v) {
				return false
			}
		} else if !validFreqValue(tok) && tok != "verbose" {
			return false
		}
	}
	return true
}

// validFreqValue is Slurm's _test_val: a decimal number or low, medium, high, highm1.
func validFreqValue(v string) bool {
	if v == "" {
		return false
	}
	if v[0] >= '0' && v[0] <= '9' {
		_, err := strconv.ParseUint(v, 10, 63)
		return err == nil
	}
	switch v {
	case "low", "medium", "high", "highm1":
		return true
	}
	return false
}
