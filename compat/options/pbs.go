package options

import (
	"bytes"
	"strconv"
	"strings"
)

// A batch script written for PBS/Torque or LSF keeps working: sbatch translates its #PBS
// or #BSUB directives into sbatch options (Slurm's xlate_batch_script), after the #SBATCH
// ones and before the environment and command line. Only one kind is translated, #BSUB
// first; --ignore-pbs (or SBATCH_IGNORE_PBS) turns the translation off. Options with no
// Slurm counterpart are dropped, as Slurm drops them.

// applyWrapperDirectives applies the translation of script's #BSUB or #PBS directives as
// script options.
func (a *applier) applyWrapperDirectives(script []byte, file string) error {
	opts, err := wrapperDirectives(script, file)
	if err != nil {
		return err
	}
	for _, w := range opts {
		id, val := w.id, w.val
		if id == exportAppend {
			id = "export"
			if a.js.Export != "" {
				val = a.js.Export + "," + val
			}
		}
		o := Lookup(Sbatch, id)
		if o == nil {
			continue
		}
		if err := a.apply(o, val, o.Arg == ArgRequired || o.Arg == ArgOptional && val != "", fromCLI); err != nil {
			return err
		}
	}
	return nil
}

// wrapperOption is one translated option: an sbatch option's ID and its value.
type wrapperOption struct {
	id, val string
}

// wrapperDirectives is the translation of script's #BSUB, else #PBS, directives, or an
// error Slurm's sbatch stops with (exit 1).
func wrapperDirectives(script []byte, file string) ([]wrapperOption, error) {
	for _, w := range []struct {
		magic string
		xlate func([]string) ([]wrapperOption, error)
	}{{"#BSUB", bsubOptions}, {"#PBS", pbsOptions}} {
		words, found, err := wrapperWords(script, file, w.magic)
		if err != nil {
			return nil, err
		}
		if found {
			return w.xlate(words)
		}
	}
	return nil, nil
}

// wrapperWords collects the words of the lines starting with magic, anywhere in the first
// hundred lines that are not comments (Slurm's scan); found says there was such a line.
func wrapperWords(script []byte, file, magic string) (words []string, found bool, err error) {
	lineno, nonComments := 0, 0
	for len(script) > 0 && nonComments <= 100 {
		var line []byte
		if i := bytes.IndexByte(script, '\n'); i >= 0 {
			line, script = script[:i], script[i+1:]
		} else {
			line, script = script, nil
		}
		lineno++
		if !bytes.HasPrefix(line, []byte(magic)) {
			if len(line) == 0 || line[0] != '#' {
				nonComments++
			}
			continue
		}
		found = true
		rest := string(line[len(magic):])
		for {
			arg, skipped, ok, ferr := nextArgument(file, lineno, rest)
			if ferr != nil {
				return nil, true, ferr
			}
			if !ok {
				break
			}
			if magic == "#BSUB" && len(words)%2 == 0 && arg == "-cwd" {
				arg = "-c" // LSF's one-dash long name
			}
			words = append(words, arg)
			rest = rest[skipped:]
		}
	}
	return words, found, nil
}

// wrapperGetopt walks words as getopt_long with a leading "+" would: short options of
// spec (a ':' after one takes a value), long ones of longs (name → short letter, and
// whether it takes a value), stopping at the first word that is no option. It calls set
// for each, and returns "Invalid argument: <word>" for a word left over.
func wrapperGetopt(words []string, spec string, longs map[string]byte, set func(c byte, val string) error) error {
	// bad is getopt's complaint, then Slurm's line (exit 1).
	bad := func(getopt string) error {
		return &Error{Stderr: "sbatch: " + getopt + "\nsbatch: error: Unrecognized command line parameter ?\n", ExitCode: 1}
	}
	takes := func(c byte) (bool, bool) {
		i := strings.IndexByte(spec, c)
		if i < 0 || c == ':' {
			return false, false
		}
		return true, i+1 < len(spec) && spec[i+1] == ':'
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			i++
			if i < len(words) {
				return cmdError(Sbatch, 1, "Invalid argument: "+words[i])
			}
			return nil
		case strings.HasPrefix(w, "--"):
			name, val, hasVal := strings.Cut(w[2:], "=")
			c, ok := longs[name]
			if !ok {
				return bad("unrecognized option '" + w + "'")
			}
			if _, arg := takes(c); arg && !hasVal {
				if i+1 >= len(words) {
					return bad("option '--" + name + "' requires an argument")
				}
				i++
				val = words[i]
			}
			if err := set(c, val); err != nil {
				return err
			}
		case len(w) > 1 && w[0] == '-':
			for j := 1; j < len(w); j++ {
				c := w[j]
				known, arg := takes(c)
				if !known {
					return bad("invalid option -- '" + string(c) + "'")
				}
				if !arg {
					if err := set(c, ""); err != nil {
						return err
					}
					continue
				}
				val := w[j+1:]
				if val == "" {
					if i+1 >= len(words) {
						return bad("option requires an argument -- '" + string(c) + "'")
					}
					i++
					val = words[i]
				}
				if err := set(c, val); err != nil {
					return err
				}
				break
			}
		default:
			return cmdError(Sbatch, 1, "Invalid argument: "+w)
		}
	}
	return nil
}

// bsubOptions translates #BSUB directives (Slurm's _set_bsub_options).
func bsubOptions(words []string) ([]wrapperOption, error) {
	longs := map[string]byte{"cwd": 'c', "error_file": 'e', "job_name": 'J', "hostname": 'm', "memory_limit": 'M',
		"output_file": 'o', "queue_name": 'q', "time": 'W', "exclusive": 'x'}
	var out []wrapperOption
	err := wrapperGetopt(words, "c:e:J:m:M:n:o:q:W:x", longs, func(c byte, val string) error {
		switch c {
		case 'c':
			out = append(out, wrapperOption{"chdir", val})
		case 'e':
			out = append(out, wrapperOption{"error", val})
		case 'J':
			out = append(out, wrapperOption{"job-name", val})
		case 'o':
			out = append(out, wrapperOption{"output", val})
		case 'm':
			out = append(out, wrapperOption{"nodelist", strings.ReplaceAll(val, " ", ",")})
		case 'M':
			if val != "" && val[len(val)-1] >= '0' && val[len(val)-1] <= '9' {
				val += "K" // LSF's unit
			}
			out = append(out, wrapperOption{"mem-per-cpu", val})
		case 'n':
			if _, most, ok := strings.Cut(val, ","); ok {
				if most == "" {
					return cmdError(Sbatch, 1, "#BSUB -n format not correct given: '"+val+"'")
				}
				val = most // the maximum of a min,max task count
			}
			out = append(out, wrapperOption{"ntasks", val})
		case 'q':
			out = append(out, wrapperOption{"partition", val})
		case 'W':
			out = append(out, wrapperOption{"time", val})
		case 'x':
			out = append(out, wrapperOption{"exclusive", ""})
		}
		return nil
	})
	return out, err
}

// pbsOptions translates #PBS directives (Slurm's _set_pbs_options). -v's list is added to
// --export's by the caller (exportAppend).
func pbsOptions(words []string) ([]wrapperOption, error) {
	longs := map[string]byte{"start_time": 'a', "account": 'A', "checkpoint": 'c', "working_dir": 'C', "error": 'e',
		"hold": 'h', "interactive": 'I', "join": 'j', "job_array": 'J', "keep": 'k', "resource_list": 'l',
		"mail_options": 'm', "mail_user_list": 'M', "job_name": 'N', "out": 'o', "priority": 'p', "destination": 'q',
		"rerunable": 'r', "script_path": 'S', "array": 't', "running_user": 'u', "variable_list": 'v', "all_env": 'V',
		"attributes": 'W', "no_std": 'z'}
	var out []wrapperOption
	err := wrapperGetopt(words, "a:A:c:C:e:hIj:J:k:l:m:M:N:o:p:q:r:S:t:u:v:VW:z", longs, func(c byte, val string) error {
		switch c {
		case 'a':
			out = append(out, wrapperOption{"begin", val})
		case 'A':
			out = append(out, wrapperOption{"account", val})
		case 'e':
			out = append(out, wrapperOption{"error", val})
		case 'o':
			out = append(out, wrapperOption{"output", val})
		case 'h':
			out = append(out, wrapperOption{"hold", ""})
		case 'J', 't': // PBS Pro's and Torque's job arrays
			out = append(out, wrapperOption{"array", val})
		case 'l':
			out = append(out, pbsResources(val)...)
		case 'm':
			if t := pbsMailType(val); t != "" {
				out = append(out, wrapperOption{"mail-type", t})
			}
		case 'M':
			out = append(out, wrapperOption{"mail-user", val})
		case 'N':
			out = append(out, wrapperOption{"job-name", val})
		case 'p':
			out = append(out, wrapperOption{"nice", val})
		case 'q':
			out = append(out, wrapperOption{"partition", val})
		case 'v':
			out = append(out, wrapperOption{exportAppend, val})
		case 'W':
			switch low := strings.ToLower(val); {
			case strings.HasPrefix(low, "umask="):
				out = append(out, wrapperOption{"umask", val[6:]})
			case strings.HasPrefix(low, "depend="):
				out = append(out, wrapperOption{"dependency", val[7:]})
			}
		}
		return nil // -c -C -I -j -k -r -S -u -V -z: no Slurm counterpart
	})
	return out, err
}

// exportAppend is the pseudo option of #PBS -v: its list goes after --export's so far.
const exportAppend = "export+"

// pbsMailType is PBS's mail events as --mail-type (Slurm's _xlate_pbs_mail_type): b BEGIN,
// e END, a FAIL, n NONE alone.
func pbsMailType(v string) string {
	if strings.ContainsAny(v, "nN") {
		return "NONE"
	}
	var t []string
	for _, m := range []struct{ letters, name string }{{"bB", "BEGIN"}, {"eE", "END"}, {"aA", "FAIL"}} {
		if strings.ContainsAny(v, m.letters) {
			t = append(t, m.name)
		}
	}
	return strings.Join(t, ",")
}

// pbsResources translates a -l resource list (Slurm's _parse_pbs_resource_list): walltime,
// cput and pcput the time limit, mem and file memory and temporary disk (Torque's "mb"
// losing its b), nodes (count, +ppn= per node, host names, gpus=), PBS Pro's
// select/ncpus/mpiprocs, nice, proc= constraints, accelerators as GPUs.
func pbsResources(rl string) []wrapperOption {
	var out []wrapperOption
	gpus := 0
	pro := 0 // select 1, ncpus 2, mpiprocs 4
	var mincpus, perNode int
	noB := func(v string) string {
		if n := len(v); n > 0 && (v[n-1] == 'b' || v[n-1] == 'B') {
			return v[:n-1]
		}
		return v
	}
	for rl != "" {
		key, rest, _ := strings.Cut(rl, "=")
		if strings.ContainsAny(key, ",:") { // no "key=" here: skip a character
			rl = rl[1:]
			continue
		}
		// The value runs to the next ',' (to ':' for PBS Pro's chunk items).
		sep := ","
		switch strings.ToLower(key) {
		case "mpiprocs", "ncpus", "select":
			sep = ":"
		}
		val, next, _ := strings.Cut(rest, sep)
		rl = next
		switch k := key; {
		case strings.EqualFold(k, "accelerator"):
			if strings.HasPrefix(strings.ToLower(val), "true") && gpus < 1 {
				gpus = 1
			}
		case k == "cput", k == "pcput", k == "walltime":
			out = append(out, wrapperOption{"time", val})
		case k == "file":
			out = append(out, wrapperOption{"tmp", noB(val)})
		case k == "mem":
			out = append(out, wrapperOption{"mem", noB(val)})
		case strings.EqualFold(k, "mpiprocs"):
			pro |= 4
			perNode, _ = strconv.Atoi(val)
			out = append(out, wrapperOption{"ntasks-per-node", val})
		case strings.EqualFold(k, "naccelerators"):
			gpus, _ = strconv.Atoi(val)
		case strings.EqualFold(k, "ncpus"):
			pro |= 2
			mincpus, _ = strconv.Atoi(val)
			out = append(out, wrapperOption{"mincpus", val})
		case k == "nice":
			out = append(out, wrapperOption{"nice", val})
		case k == "nodes":
			out = append(out, pbsNodes(val)...)
		case k == "proc":
			out = append(out, wrapperOption{"constraint", val})
		case strings.EqualFold(k, "select"):
			pro |= 1
			out = append(out, wrapperOption{"nodes", val})
		}
	}
	if pro == 7 && perNode > 0 && mincpus > perNode {
		out = append(out, wrapperOption{"cpus-per-task", strconv.Itoa(mincpus / perNode)})
	}
	if gpus > 0 {
		out = append(out, wrapperOption{"gres", "gpu:" + strconv.Itoa(gpus)})
	}
	return out
}

// pbsNodes translates nodes=<count|host>[:ppn=N][:gpus=N][+...] (Slurm's
// _parse_pbs_nodes_opts): the counts add up to -N, ppn times the nodes is -n, host names
// are the node list.
func pbsNodes(spec string) []wrapperOption {
	var out []wrapperOption
	var hosts []string
	nodes, ppn := 0, 0
	for _, part := range strings.FieldsFunc(spec, func(r rune) bool { return r == '+' || r == ':' }) {
		switch {
		case strings.HasPrefix(part, "gpus="):
			out = append(out, wrapperOption{"gpus-per-node", part[5:]})
		case strings.HasPrefix(part, "ppn="):
			n, _, _ := strtol(part[4:])
			ppn += int(n)
		case part[0] >= '0' && part[0] <= '9':
			n, _, _ := strtol(part)
			nodes += int(n)
		case part[0] >= 'a' && part[0] <= 'z' || part[0] >= 'A' && part[0] <= 'Z':
			hosts = append(hosts, part)
		}
	}
	if nodes == 0 {
		nodes = 1
	} else {
		out = append(out, wrapperOption{"nodes", strconv.Itoa(nodes)})
	}
	if ppn > 0 {
		out = append(out, wrapperOption{"ntasks", strconv.Itoa(ppn * nodes)})
	}
	if len(hosts) > 0 {
		out = append(out, wrapperOption{"nodelist", strings.Join(hosts, ",")})
	}
	return out
}
