package conf

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultPath is where Slurm (and so Orbit) looks for slurm.conf when neither -f nor
// SLURM_CONF names one.
const DefaultPath = "/etc/slurm/slurm.conf"

// maxIncludeDepth bounds Include nesting; a deeper chain is reported as a loop would be.
const maxIncludeDepth = 32

// Locate returns the slurm.conf to read: the -f flag when given, else $SLURM_CONF, else
// DefaultPath.
func Locate(flagPath string) string {
	if flagPath != "" {
		return flagPath
	}
	if p := os.Getenv("SLURM_CONF"); p != "" {
		return p
	}
	return DefaultPath
}

// Load reads slurm.conf at path with its Includes, applies Slurm's defaults and derivations,
// validates everything, and reads gres.conf, topology.conf and cgroup.conf from the same
// directory when they exist. On any error it returns the Config read so far together with a
// conf.Errors listing every problem found, each with file and line.
func Load(path string) (*Config, error) {
	l := newLoader()
	l.readFile(path, position{}, nil)
	c := l.build(path)
	files := append([]string{path}, l.files...)
	l.errs.sort(files)
	loadCompanions(c, filepath.Dir(path), &l.errs)
	c.Warnings = l.errs.warns
	return c, l.errs.err()
}

// Parse reads slurm.conf text held in memory (name is used in messages and to resolve
// relative Includes against the current directory's name for it).
func Parse(name string, data []byte) (*Config, error) {
	l := newLoader()
	l.files = append(l.files, name)
	l.parseText(name, string(data), nil)
	c := l.build(name)
	l.errs.sort(l.files)
	c.Warnings = l.errs.warns
	return c, l.errs.err()
}

type lineRec struct {
	pos   position
	value string // the main key's value (node names, partition name, ...)
	vals  subVals
}

// recList is an append-only list of line records kept in fixed-size blocks: a cluster's
// tens of thousands of NodeName lines are stored once, never copied by slice growth.
type recList struct {
	blocks [][]lineRec
}

const recBlock = 1024

func (r *recList) add(rec lineRec) {
	if k := len(r.blocks); k == 0 || len(r.blocks[k-1]) == cap(r.blocks[k-1]) {
		// Small first blocks keep a site's ordinary few-line config small.
		r.blocks = append(r.blocks, make([]lineRec, 0, min(recBlock, 16<<k)))
	}
	k := len(r.blocks) - 1
	r.blocks[k] = append(r.blocks[k], rec)
}

type loader struct {
	errs  errList
	raw   map[string]Value
	files []string

	nodeDefault, partDefault, frontDefault subVals
	nodes                                  recList
	parts, nodeSets, downs, fronts         []lineRec
	ctldHosts                              []lineRec

	// mark and markGen list the nodes already in the partition being built (see
	// partitionNodes).
	mark    []uint32
	markGen uint32
	arena   subArena
}

func newLoader() *loader {
	return &loader{raw: map[string]Value{}}
}

// readFile reads one file; stack is the chain of files including it, for loop detection.
func (l *loader) readFile(path string, from position, stack []string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	for _, s := range stack {
		if s == abs {
			chain := append(append([]string{}, stack...), abs)
			for i := range chain {
				chain[i] = filepath.Base(chain[i])
			}
			l.errs.add(from.file, from.line, "Include", "Include loop: %s", strings.Join(chain, " -> "))
			return
		}
	}
	if len(stack) >= maxIncludeDepth {
		l.errs.add(from.file, from.line, "Include", "Include nested more than %d deep", maxIncludeDepth)
		return
	}
	data, err := readConfigFile(path)
	if err != nil {
		msg := errText(err)
		if from.file == "" {
			l.errs.add(path, 0, "", "cannot read file: %s", msg)
		} else {
			l.errs.add(from.file, from.line, "Include", "\"Include\" failed: cannot read file %s: %s", path, msg)
		}
		return
	}
	l.files = append(l.files, path)
	l.parseText(path, data, append(stack, abs))
}

// errText is an OS error without Go's "open <path>:" prefix, as C's %m prints it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func (l *loader) parseText(file string, text string, stack []string) {
	for _, ln := range splitText(text) {
		pos := position{file, ln.Num}
		if l.include(ln.Text, pos, stack) {
			continue
		}
		l.parseLine(ln.Text, pos)
	}
}

// include handles an "Include <file>" line (keyword case-insensitive, followed by white space;
// relative names are relative to the including file's directory; %c is the lower-cased
// ClusterName set so far; globs are expanded in sorted order, an Orbit extension that later
// Slurm releases share). It reports whether the line was an Include line.
func (l *loader) include(text string, pos position, stack []string) bool {
	if len(text) < 8 || !strings.EqualFold(text[:7], "include") || !isSpace(text[7]) {
		return false
	}
	rest := strings.TrimLeft(text[7:], " \t\r\n\v\f")
	i := 0
	for i < len(rest) && !isSpace(rest[i]) {
		i++
	}
	name, tail := rest[:i], rest[i:]
	if name == "" {
		l.errs.add(pos.file, pos.line, "Include", "\"Include\" failed: no file name given")
		return true
	}
	if !isBlank(tail) {
		l.errs.parseError(pos, tail)
	}
	if strings.Contains(name, "%c") {
		cn, ok := l.raw["ClusterName"]
		if !ok {
			l.errs.add(pos.file, pos.line, "Include", "Did not get ClusterName for include path")
			return true
		}
		name = strings.ReplaceAll(name, "%c", strings.ToLower(cn.Value))
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(pos.file), name)
	}
	if strings.ContainsAny(name, "*?[") {
		matches, err := filepath.Glob(name)
		if err != nil {
			l.errs.add(pos.file, pos.line, "Include", "\"Include\" failed: bad pattern %s", name)
			return true
		}
		if len(matches) == 0 {
			l.errs.add(pos.file, pos.line, "Include", "\"Include\" failed: no file matches %s", name)
			return true
		}
		for _, m := range matches {
			l.readFile(m, pos, stack)
		}
		return true
	}
	l.readFile(name, pos, stack)
	return true
}

// parseLine handles one logical line that is not an Include: exactly one top-level
// Key=Value, except for the line keys (NodeName=...) whose sub-keys take the rest.
func (l *loader) parseLine(text string, pos position) {
	key, _, value, rest, ok := nextPair(text)
	if !ok {
		l.errs.parseError(pos, text)
		return
	}
	k, known := LookupKey(key)
	if !known {
		e := l.errs.add(pos.file, pos.line, key, "Parsing error at unrecognized key: %s", key)
		e.Slurm = "_parse_next_key: " + e.Msg
		return
	}
	if k.Kind == KindLines {
		l.parseLineKey(k.Name, value, rest, pos)
		return
	}
	if err := checkValue(k.Kind, k.Name, value); err != nil {
		l.errs.add(pos.file, pos.line, k.Name, "%v", err)
		return
	}
	if !isBlank(rest) {
		l.errs.parseError(pos, rest)
		return
	}
	if prev, dup := l.raw[k.Name]; dup {
		l.errs.warn(pos.file, pos.line, k.Name, "%s specified more than once, latest value used (previous at %s:%d)",
			k.Name, prev.File, prev.Line)
	}
	l.raw[k.Name] = Value{Key: k.Name, Value: value, File: pos.file, Line: pos.line}
}

func (l *loader) parseLineKey(name, value, rest string, pos position) {
	switch name {
	case "NodeName":
		vals := parseSubKeys(nodeTable, rest, pos, &l.errs, &l.arena)
		if strings.EqualFold(value, "DEFAULT") {
			for _, k := range []string{"NodeHostname", "BcastAddr", "NodeAddr"} {
				if vals.has(k) {
					l.errs.add(pos.file, pos.line, k, "%s not allowed with NodeName=DEFAULT", k)
					vals = vals.without(k)
				}
			}
			l.nodeDefault = merge(l.nodeDefault, vals)
			return
		}
		if strings.EqualFold(value, "ALL") {
			l.errs.add(pos.file, pos.line, "NodeName", "'%s' is a reserved word disallowed for use with NodeName", value)
			return
		}
		l.nodes.add(lineRec{pos, value, withDefaults(l.nodeDefault, vals)})
	case "PartitionName":
		vals := parseSubKeys(partitionTable, rest, pos, &l.errs, &l.arena)
		if strings.EqualFold(value, "DEFAULT") {
			l.partDefault = merge(l.partDefault, vals)
			return
		}
		// These four keys do not inherit from PartitionName=DEFAULT in Slurm 22.05.
		d := l.partDefault.without("DisableRootJobs", "ExclusiveUser", "SelectTypeParameters", "SuspendTime")
		l.parts = append(l.parts, lineRec{pos, value, withDefaults(d, vals)})
	case "NodeSet":
		l.nodeSets = append(l.nodeSets, lineRec{pos, value, parseSubKeys(nodeSetTable, rest, pos, &l.errs, &l.arena)})
	case "DownNodes":
		l.downs = append(l.downs, lineRec{pos, value, parseSubKeys(downNodesTable, rest, pos, &l.errs, &l.arena)})
	case "FrontendName":
		// Slurm 22.05 as Debian builds it (without --enable-front-end) stops here.
		l.errs.add(pos.file, pos.line, "FrontendName", "Use of FrontendName in slurm.conf without Slurm being configured/built with the --enable-front-end option").Fatal = true
		vals := parseSubKeys(frontendTable, rest, pos, &l.errs, &l.arena)
		if strings.EqualFold(value, "DEFAULT") {
			if vals.has("FrontendAddr") {
				l.errs.add(pos.file, pos.line, "FrontendAddr", "FrontendAddr not allowed with FrontendName=DEFAULT")
				return
			}
			l.frontDefault = merge(l.frontDefault, vals)
			return
		}
		l.fronts = append(l.fronts, lineRec{pos, value, withDefaults(l.frontDefault, vals)})
	case "SlurmctldHost":
		parseSubKeys(ctldHostTable, rest, pos, &l.errs, &l.arena)
		l.ctldHosts = append(l.ctldHosts, lineRec{pos: pos, value: value})
	default:
		l.errs.add(pos.file, pos.line, name, "internal: no handler for %s", name)
	}
}

// at returns the position of a raw key, for messages about it.
func (l *loader) at(key string) (string, int) {
	if v, ok := l.raw[key]; ok {
		return v.File, v.Line
	}
	return "", 0
}

func (l *loader) errorf(key, format string, args ...any) *Error {
	f, n := l.at(key)
	return l.errs.add(f, n, key, format, args...)
}

func (l *loader) warnf(key, format string, args ...any) {
	f, n := l.at(key)
	l.errs.warn(f, n, key, format, args...)
}

// clientWarnf is warnf for a problem Slurm reports from every program that reads slurm.conf
// (its error() while it validates the file), so that the user commands print it too.
func (l *loader) clientWarnf(key, format string, args ...any) {
	l.warnf(key, format, args...)
	l.errs.warns[len(l.errs.warns)-1].Client = true
}

// maxFileSize bounds one configuration file (a 20,000-node slurm.conf is about 2 MB).
const maxFileSize = 256 << 20

// readConfigFile reads a regular file. Devices, FIFOs and directories are refused so that a
// mistaken "Include /dev/zero" cannot hang the reader; /dev/null reads as empty, as in Slurm.
// The text is returned as a string read in place (no copy of a multi-megabyte file).
func readConfigFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		if path == os.DevNull {
			return "", nil
		}
		return "", errors.New("not a regular file")
	}
	if fi.Size() > maxFileSize {
		return "", errors.New("file too large")
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	b.Grow(int(fi.Size()) + 1)
	// LimitReader: a file growing while read still cannot exceed the bound.
	if _, err := io.Copy(&b, io.LimitReader(f, maxFileSize+1)); err != nil {
		return "", err
	}
	if b.Len() > maxFileSize {
		return "", errors.New("file too large")
	}
	return b.String(), nil
}
