package json

import (
	"regexp"
	"strings"
)

// KeepJobs keeps, from squeue's --json or --yaml text, only the job entries with one of
// the given job ids: the reference's queue also holds other people's jobs (and earlier
// recordings'), and squeue --json ignores -j and -n. The entries are cut at their own lines, so the bytes of every kept
// entry are untouched.
func KeepJobs(text string, ids []string, yaml bool) string {
	lines := strings.SplitAfter(text, "\n")
	var out, entry []string
	inJobs, keep := false, false
	flush := func() {
		if keep {
			out = append(out, entry...)
		}
		entry, keep = nil, false
	}
	for _, l := range lines {
		switch {
		case !yaml && l == "  \"jobs\": [\n", yaml && l == "!!str jobs: !!seq\n":
			inJobs = true
			out = append(out, l)
			continue
		case !inJobs:
			out = append(out, l)
			continue
		case !yaml && (l == "  ]\n" || l == "  ]"), yaml && (l == "...\n" || !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "-")):
			flush()
			inJobs = false
			out = append(out, l)
			continue
		case !yaml && l == "    {\n", yaml && l == "- !!map\n":
			flush()
		}
		entry = append(entry, l)
		for _, id := range ids {
			if l == `      "job_id": `+id+",\n" || l == "  !!str job_id: !!int "+id+"\n" {
				keep = true
			}
		}
	}
	flush()
	s := strings.Join(out, "")
	if !yaml {
		// Entries were "},"-separated in a longer list: the last one kept ends the list.
		s = strings.ReplaceAll(s, "    },\n  ]", "    }\n  ]")
	}
	return s
}

// Normalisations, each with why it is needed; each applies to a JSON line ("key": v) and
// a YAML line (!!str key: !!int v) alike.
var (
	// Times differ between any two runs; only whether one is set (non-zero) is compared.
	timeKeys = `accrue_time|eligible_time|end_time|last_sched_evaluation|start_time|submit_time|` +
		`boot_time|slurmd_start_time|last_busy|reason_changed_at`
	reTime = regexp.MustCompile(`("(?:` + timeKeys + `)": |!!str (?:` + timeKeys + `): !!int )[1-9][0-9]*`)
	// Job ids are assigned by each cluster; the jobs are told apart by name.
	reJobID = regexp.MustCompile(`("job_id": |!!str job_id: !!int )[0-9]+`)
	// The user and group running the test differ from the recording's.
	reIDs   = regexp.MustCompile(`("(?:user_id|group_id)": |!!str (?:user_id|group_id): !!int )[0-9]+`)
	reNames = regexp.MustCompile(`("(?:user_name|group_name)": |!!str (?:user_name|group_name): !!str )\S+?("?,?)$`)
	// Paths: the working directory is the recorder's or the test's temporary directory.
	rePath = regexp.MustCompile(`("current_working_directory": |!!str current_working_directory: !!str )\S+?("?,?)$`)
	// Host facts of the machine the node runs on (host name, address, load, free memory,
	// architecture, kernel) are not the cluster's to decide. (Orbit's slurmd does not
	// report architecture and kernel yet: they print unset.) The slurmd port is the test
	// cluster's free port.
	reHost = regexp.MustCompile(`^(\s*(?:"(?:hostname|operating_system|address|architecture|port)": |!!str (?:hostname|operating_system|address|architecture|port): )).*?(,?)$`)
	reLoad = regexp.MustCompile(`("(?:cpu_load|free_memory)": |!!str (?:cpu_load|free_memory): !!int )-?[0-9]+`)
	// Priority is computed by each site's priority plugin and job age.
	rePrio = regexp.MustCompile(`("priority": |!!str priority: !!int )[1-9][0-9]*`)
	// Which cores of the node a job holds depends on what else runs on the shared
	// reference; only how many is compared (core numbers are renumbered from 0).
	reCore = regexp.MustCompile(`^(\s*)("[0-9]+": "allocated|!!str [0-9]+: !!str allocated)`)
)

// Normalise replaces what must differ between the reference and Orbit (see the patterns
// above) by placeholders.
func Normalise(s string) string {
	lines := strings.Split(s, "\n")
	core := 0
	for i, l := range lines {
		l = reTime.ReplaceAllString(l, "${1}<time>")
		l = reJobID.ReplaceAllString(l, "${1}<id>")
		l = reIDs.ReplaceAllString(l, "${1}<uid>")
		l = reNames.ReplaceAllString(l, "${1}<user>${2}")
		l = rePath.ReplaceAllString(l, "${1}<path>${2}")
		l = reHost.ReplaceAllString(l, "${1}<host>${2}")
		l = reLoad.ReplaceAllString(l, "${1}<load>")
		l = rePrio.ReplaceAllString(l, "${1}<prio>")
		if m := reCore.FindStringSubmatch(l); m != nil {
			if strings.HasPrefix(m[2], `"`) {
				l = regexp.MustCompile(`"[0-9]+": `).ReplaceAllString(l, `"`+itoa(core)+`": `)
			} else {
				l = regexp.MustCompile(`!!str [0-9]+: `).ReplaceAllString(l, "!!str "+itoa(core)+": ")
			}
			core++
		} else if strings.Contains(l, "cores") {
			core = 0
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
