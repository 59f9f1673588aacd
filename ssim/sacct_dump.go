package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// sacctTimeLayout is how sacct prints Submit, Start and End (without SLURM_TIME_FORMAT).
const sacctTimeLayout = "2006-01-02T15:04:05"

// ReadSacct reads `sacct -P` output (or `--parsable2`): a header line naming the fields,
// then one '|'-separated line per job or step, times in loc. It uses whichever of these the
// header has — JobID (or JobIDRaw), Submit, Start, End, Elapsed (or ElapsedRaw), Timelimit
// (or TimelimitRaw), NNodes (or ReqNodes), NCPUS (or AllocCPUS, ReqCPUS), State, User,
// Partition — and needs at least JobID, Submit and a run time (Elapsed, or Start and End).
// Step lines (JobID with a '.', e.g. 12.batch, 12.0) are not jobs and are passed over. Jobs
// that never started (Start Unknown or None, pending or cancelled in the queue) or have not
// ended are left out and counted. Times are made relative to the first submit.
func ReadSacct(r io.Reader, name string, loc *time.Location) (*Trace, error) {
	tr := &Trace{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	col := map[string]int{}
	var ncol int
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "|")
		if ncol == 0 {
			if err := sacctHeader(f, col); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, err)
			}
			ncol = len(f)
			continue
		}
		// -P ends the header and every line with '|', --parsable2 neither: counts agree.
		if len(f) != ncol {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", name, line, len(f), ncol)
		}
		getKey := func(keys ...string) (string, string) {
			for _, k := range keys {
				if i, ok := col[k]; ok {
					return strings.TrimSpace(f[i]), k
				}
			}
			return "", ""
		}
		get := func(keys ...string) string { v, _ := getKey(keys...); return v }
		id := get("jobidraw", "jobid")
		if id == "" {
			return nil, fmt.Errorf("%s:%d: empty JobID", name, line)
		}
		if strings.Contains(id, ".") {
			continue
		}
		j := Job{ID: id, User: get("user"), Partition: get("partition"), Line: line, Requested: -1}
		submit, ok, err := sacctTime(get("submit"), loc)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: Submit: %v", name, line, err)
		}
		if !ok {
			tr.skip("unknown submit time")
			continue
		}
		j.Submit = submit
		start, started, err := sacctTime(get("start"), loc)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: Start: %v", name, line, err)
		}
		end, ended, err := sacctTime(get("end"), loc)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: End: %v", name, line, err)
		}
		if _, has := col["start"]; has && !started {
			tr.skip("never started")
			continue
		}
		if _, has := col["end"]; has && !ended {
			tr.skip("not ended")
			continue
		}
		state := strings.ToUpper(get("state"))
		if strings.HasPrefix(state, "PENDING") || strings.HasPrefix(state, "RUNNING") || strings.HasPrefix(state, "REQUEUED") {
			tr.skip("not ended")
			continue
		}
		switch el := get("elapsedraw", "elapsed"); {
		case el != "":
			secs, err := sacctDuration(el)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: Elapsed: %v", name, line, err)
			}
			j.Runtime = secs
		case started && ended:
			j.Runtime = max(end-start, 0)
		default:
			return nil, fmt.Errorf("%s:%d: no run time: the header needs Elapsed, or Start and End", name, line)
		}
		if tl, key := getKey("timelimitraw", "timelimit"); tl != "" && !strings.EqualFold(tl, "Partition_Limit") {
			secs, err := sacctLimit(tl, key == "timelimitraw")
			if err != nil {
				return nil, fmt.Errorf("%s:%d: Timelimit: %v", name, line, err)
			}
			j.Requested = secs
		}
		if n := get("nnodes", "reqnodes"); n != "" {
			v, err := sacctCount(n)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: NNodes: %v", name, line, err)
			}
			j.Nodes = v
		}
		if n := get("ncpus", "alloccpus", "reqcpus"); n != "" {
			v, err := sacctCount(n)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: NCPUS: %v", name, line, err)
			}
			j.Procs = v
		}
		if j.Nodes <= 0 && j.Procs <= 0 {
			tr.skip("unknown size")
			continue
		}
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if ncol == 0 {
		return nil, fmt.Errorf("%s: no header line (run sacct with -P and without -n)", name)
	}
	if len(tr.Jobs) > 0 {
		first := tr.Jobs[0].Submit
		for _, j := range tr.Jobs {
			first = min(first, j.Submit)
		}
		for i := range tr.Jobs {
			tr.Jobs[i].Submit -= first
		}
	}
	return tr, nil
}

// sacctHeader indexes the header's field names, in lower case, by column.
func sacctHeader(f []string, col map[string]int) error {
	for i, h := range f {
		k := strings.ToLower(strings.TrimSpace(h))
		if k == "" {
			if i == len(f)-1 {
				continue // -P's trailing '|'
			}
			return fmt.Errorf("empty field name in the header (column %d)", i+1)
		}
		if _, dup := col[k]; dup {
			return fmt.Errorf("field %s twice in the header", h)
		}
		col[k] = i
	}
	if _, ok := col["jobid"]; !ok {
		if _, ok := col["jobidraw"]; !ok {
			return fmt.Errorf("the header has no JobID field (is this `sacct -P` output?)")
		}
	}
	if _, ok := col["submit"]; !ok {
		return fmt.Errorf("the header has no Submit field (add it with --format)")
	}
	return nil
}

// sacctTime parses a timestamp; ok is false for sacct's Unknown and None.
func sacctTime(s string, loc *time.Location) (int64, bool, error) {
	switch strings.ToLower(s) {
	case "", "unknown", "none":
		return 0, false, nil
	}
	t, err := time.ParseInLocation(sacctTimeLayout, s, loc)
	if err != nil {
		return 0, false, fmt.Errorf("%q is not a time like 2024-01-31T13:45:00", s)
	}
	return t.Unix(), true, nil
}

// maxDuration bounds durations read from a dump: a year of seconds is more than any job runs,
// and it keeps Slurm's 32-bit wrap-around from turning garbage into a plausible figure.
const maxDuration = 100 * 365 * 24 * 3600

// sacctDuration parses Elapsed ([D-]HH:MM:SS) or ElapsedRaw (seconds).
func sacctDuration(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > maxDuration {
			return 0, fmt.Errorf("%q out of range", s)
		}
		return n, nil
	}
	secs, err := slurmtime.ParseTimeLimitSecs(s)
	if err != nil || secs == slurmtime.Infinite || int32(secs) < 0 || secs > maxDuration {
		return 0, fmt.Errorf("%q is not a duration like 1-02:03:04", s)
	}
	return int64(secs), nil
}

// sacctLimit parses Timelimit ([D-]HH:MM:SS, UNLIMITED) or TimelimitRaw (minutes) into
// seconds, -1 for none.
func sacctLimit(s string, raw bool) (int64, error) {
	if strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE") {
		return -1, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && raw {
		if n < 0 || n > maxDuration/60 {
			return 0, fmt.Errorf("%q out of range", s)
		}
		return n * 60, nil
	}
	return sacctDuration(s)
}

// sacctCount parses a node or CPU count (sacct may print 1.50K for large counts).
func sacctCount(s string) (int64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1e3, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || x*mult > 1e9 || x != x {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return int64(x * mult), nil
}
