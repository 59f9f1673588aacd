package schedhost

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// typeName is a SchedulerType's plugin part: "sched/" and a plain name, so the executable
// looked up can never be a path outside the searched directories.
var typeName = regexp.MustCompile(`^sched/([a-z0-9_]+)$`)

// ExecutableName is the plugin executable for a SchedulerType: sched/backfill runs
// sched_backfill, the name of Slurm's sched_backfill.so without the suffix.
func ExecutableName(schedType string) (string, error) {
	m := typeName.FindStringSubmatch(schedType)
	if m == nil {
		return "", fmt.Errorf("invalid SchedulerType %q: expected sched/NAME", schedType)
	}
	return "sched_" + m[1], nil
}

// SearchDirs lists where the plugin for SchedulerType is looked for, in order: each entry of
// pluginDir (colon-separated, as Slurm's PluginDir), the directory of the running executable,
// then extra. Empty and repeated entries are dropped.
func SearchDirs(pluginDir string, extra []string) []string {
	var dirs []string
	add := func(d string) {
		if d == "" {
			return
		}
		d = filepath.Clean(d)
		for _, have := range dirs {
			if have == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	for _, d := range strings.Split(pluginDir, ":") {
		add(d)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		add(filepath.Dir(exe))
	}
	for _, d := range extra {
		add(d)
	}
	return dirs
}

// Find returns the path of the plugin executable for schedType in the first of dirs that
// holds one (a regular file with an execute bit), or an error naming the type and every
// directory searched.
func Find(schedType string, dirs []string) (string, error) {
	name, err := ExecutableName(schedType)
	if err != nil {
		return "", err
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot find sched plugin for %s: no executable %s in %s", schedType, name, strings.Join(dirs, ", "))
}
