package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// swfFields is the number of fields of an SWF job line (SWF 2.2).
const swfFields = 18

// The SWF fields ssim reads, 0-based (the format numbers them from 1).
const (
	swfJob       = 0
	swfSubmit    = 1
	swfRun       = 3
	swfAllocProc = 4
	swfReqProc   = 7
	swfReqTime   = 8
	swfStatus    = 10
	swfUser      = 11
)

// swfCancelled is SWF status 5: the job was cancelled (before or while running).
const swfCancelled = 5

// ReadSWF reads a Standard Workload Format trace. Header and comment lines start with ';'
// (their Key: value pairs land in header); every other non-blank line is one job of 18
// whitespace-separated numbers, -1 for unknown. A job is left out, and counted in
// Trace.Skipped, when its submit time, run time or processors are unknown, or when it was
// cancelled before it ran (status 5 with no run time). The processors simulated are the
// requested ones (field 8), the allocated ones (field 5) when those are unknown. A line
// that is not 18 numbers is an error naming name and the line.
func ReadSWF(r io.Reader, name string) (*Trace, map[string]string, error) {
	tr := &Trace{}
	header := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if text[0] == ';' {
			if k, v, ok := strings.Cut(text[1:], ":"); ok {
				if k = strings.TrimSpace(k); k != "" && !strings.ContainsAny(k, " \t") {
					header[k] = strings.TrimSpace(v)
				}
			}
			continue
		}
		f := strings.Fields(text)
		if len(f) != swfFields {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, an SWF job line has %d", name, line, len(f), swfFields)
		}
		var v [swfFields]int64
		for i, s := range f {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				// Some archive traces write the average CPU time (field 6) with decimals.
				x, ferr := strconv.ParseFloat(s, 64)
				if ferr != nil || i == swfJob || i == swfSubmit || i == swfRun || i == swfAllocProc || i == swfReqProc || i == swfReqTime {
					return nil, nil, fmt.Errorf("%s:%d: field %d %q is not an integer", name, line, i+1, s)
				}
				n = int64(x)
			}
			if n < -1 {
				return nil, nil, fmt.Errorf("%s:%d: field %d is %d; SWF fields are -1 (unknown) or not negative", name, line, i+1, n)
			}
			v[i] = n
		}
		procs := v[swfReqProc]
		if procs <= 0 {
			procs = v[swfAllocProc]
		}
		switch {
		case v[swfSubmit] < 0:
			tr.skip("unknown submit time")
			continue
		case v[swfStatus] == swfCancelled && v[swfRun] <= 0:
			tr.skip("cancelled before it ran")
			continue
		case v[swfRun] < 0:
			tr.skip("unknown run time")
			continue
		case procs <= 0:
			tr.skip("unknown processors")
			continue
		}
		j := Job{
			ID: f[swfJob], Submit: v[swfSubmit], Runtime: v[swfRun], Requested: v[swfReqTime],
			Procs: procs, Line: line,
		}
		if v[swfReqTime] == 0 {
			j.Requested = -1
		}
		if v[swfUser] >= 0 {
			j.User = f[swfUser]
		}
		tr.Jobs = append(tr.Jobs, j)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return tr, header, nil
}
