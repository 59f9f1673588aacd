package jobspec

import "strings"

// ExportItems splits an --export value into its items as Slurm's find_quote_token does: at
// commas outside single or double quotes, an item wholly enclosed in one kind of quote losing
// them ("A=1,'B=x,y'" is A=1 and B=x,y). Empty items are dropped.
func ExportItems(export string) []string {
	var out []string
	start := 0
	var quote byte
	for i := 0; i <= len(export); i++ {
		if i < len(export) {
			switch c := export[i]; {
			case quote != 0 && c == quote:
				quote = 0
				continue
			case quote == 0 && (c == '\'' || c == '"'):
				quote = c
				continue
			case quote != 0 || c != ',':
				continue
			}
		}
		item := export[start:i]
		if n := len(item); n >= 2 && (item[0] == '\'' || item[0] == '"') && item[n-1] == item[0] {
			item = item[1 : n-1]
		}
		if item != "" {
			out = append(out, item)
		}
		start = i + 1
	}
	return out
}

// StepExportEnv is the environment srun gives a step's tasks from its own env under
// --export (Slurm's _build_user_env): unset or ALL, all of it; otherwise the listed
// variables (NAME=value, or NAME for srun's own value when it has one; NONE ends the list)
// and srun's SLURM_* variables, with ALL among the items all of env on top.
func StepExportEnv(env []string, export string) []string {
	if export == "" {
		return env
	}
	e := NewEnvList()
	all := false
	for _, item := range ExportItems(export) {
		if strings.EqualFold(item, "ALL") {
			all = true
			continue
		}
		if strings.EqualFold(item, "NONE") {
			break
		}
		if name, val, ok := strings.Cut(item, "="); ok {
			e.Set(name, val)
		} else if v, ok := Lookup(env, item); ok {
			e.Set(item, v)
		}
	}
	if all {
		e.AddAll(env)
	} else {
		e.AddSlurm(env)
	}
	return e.List()
}

// EnvList is an ordered environment where a later Set replaces an earlier value in place.
type EnvList struct {
	names []string
	vals  map[string]string
}

// NewEnvList is an empty EnvList.
func NewEnvList() *EnvList { return &EnvList{vals: map[string]string{}} }

// Set gives name the value val.
func (e *EnvList) Set(name, val string) {
	if _, ok := e.vals[name]; !ok {
		e.names = append(e.names, name)
	}
	e.vals[name] = val
}

// AddAll sets every NAME=value of env.
func (e *EnvList) AddAll(env []string) {
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && name != "" {
			e.Set(name, val)
		}
	}
}

// AddSlurm sets the SLURM_* variables of env.
func (e *EnvList) AddSlurm(env []string) {
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, "SLURM_") {
			e.Set(name, val)
		}
	}
}

// List is the environment as NAME=value strings, in the order names were first set.
func (e *EnvList) List() []string {
	out := make([]string, 0, len(e.names))
	for _, n := range e.names {
		out = append(out, n+"="+e.vals[n])
	}
	return out
}

// Lookup returns the value of name in env (the last one wins, as getenv sees it).
func Lookup(env []string, name string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if n, v, ok := strings.Cut(kv, "="); ok && n == name {
			val, found = v, true
		}
	}
	return val, found
}
