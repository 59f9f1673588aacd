package conf

import (
	"path/filepath"
	"strings"
)

// companionRec is one repeatable line of a companion file (gres.conf Name=/NodeName=,
// topology.conf SwitchName=).
type companionRec struct {
	key   string // canonical line key
	value string
	vals  subVals
	pos   position
}

// companionFile is what the generic companion parser returns.
type companionFile struct {
	raw  map[string]Value
	recs []companionRec
}

// parseCompanion reads a companion file with the same syntax as slurm.conf (Slurm parses them
// all with parse_config.c): top holds its plain keys, lines its repeatable line keys with their
// sub-keys. Include works as in slurm.conf.
func parseCompanion(path string, data string, top []Key, lines map[string][]Key, errs *errList, stack []string) *companionFile {
	cf := &companionFile{raw: map[string]Value{}}
	topT := indexKeys(top)
	lineT := map[string]subTable{}
	lineName := map[string]string{}
	for name, keys := range lines {
		lineT[strings.ToLower(name)] = indexKeys(keys)
		lineName[strings.ToLower(name)] = name
	}
	var walk func(path string, data string, stack []string)
	walk = func(path string, data string, stack []string) {
		for _, ln := range splitText(data) {
			pos := position{path, ln.Num}
			t := ln.Text
			if len(t) >= 8 && strings.EqualFold(t[:7], "include") && isSpace(t[7]) {
				name := strings.Fields(t[7:])[0]
				if !filepath.IsAbs(name) {
					name = filepath.Join(filepath.Dir(path), name)
				}
				abs, _ := filepath.Abs(name)
				loop := len(stack) >= maxIncludeDepth
				for _, s := range stack {
					loop = loop || s == abs
				}
				if loop {
					errs.add(pos.file, pos.line, "Include", "Include loop: %s", filepath.Base(name))
					continue
				}
				b, err := readConfigFile(name)
				if err != nil {
					errs.add(pos.file, pos.line, "Include", "\"Include\" failed: cannot read file %s: %s", name, errText(err))
					continue
				}
				walk(name, b, append(stack, abs))
				continue
			}
			key, _, value, rest, ok := nextPair(t)
			if !ok {
				errs.add(pos.file, pos.line, "", "Parse error at \"%s\"", trimCRLF(t))
				continue
			}
			lk := strings.ToLower(key)
			if st, isLine := lineT[lk]; isLine {
				vals := parseSubKeys(st, rest, pos, errs, nil)
				cf.recs = append(cf.recs, companionRec{key: lineName[lk], value: value, vals: vals, pos: pos})
				continue
			}
			k, known := topT[lk]
			if !known {
				errs.add(pos.file, pos.line, key, "Parsing error at unrecognized key: %s", key)
				continue
			}
			if err := checkValue(k.Kind, k.Name, value); err != nil {
				errs.add(pos.file, pos.line, k.Name, "%v", err)
				continue
			}
			if !isBlank(rest) {
				errs.add(pos.file, pos.line, "", "Parse error at \"%s\"", trimCRLF(rest))
				continue
			}
			cf.raw[k.Name] = Value{Key: k.Name, Value: value, File: pos.file, Line: pos.line}
		}
	}
	walk(path, data, stack)
	return cf
}

// done sorts a companion file's errors by file and line and returns them.
func (l *errList) done(path string) error {
	l.sort([]string{path})
	return l.err()
}

// readCompanion reads path and parses it; a missing or unreadable file is one error.
func readCompanion(path string, top []Key, lines map[string][]Key, errs *errList) *companionFile {
	data, err := readConfigFile(path)
	if err != nil {
		errs.add(path, 0, "", "cannot read file: %s", errText(err))
		return nil
	}
	abs, _ := filepath.Abs(path)
	return parseCompanion(path, data, top, lines, errs, []string{abs})
}
