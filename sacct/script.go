package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// -B (--batch-script) and --env-vars print one block per selected job instead of lines: a
// title naming the job, a rule of 80 dashes, then the script (or environment) and a newline,
// or "NONE" when accounting has none for it — a job without a script (salloc, srun), or
// AccountingStoreFlags without job_script (job_env) on the controller.

var rule = strings.Repeat("-", 80)

func scriptBlock(j *wire.AcctJob) string {
	return "Batch Script for " + jobIDText(j) + "\n" + rule + "\n" + orNone(j.Script) + "\n"
}

func envBlock(j *wire.AcctJob) string {
	return "Environment used for " + jobIDText(j) + " (must be batch to display)\n" + rule + "\n" + orNone(j.Env) + "\n"
}

func orNone(s string) string {
	if s == "" {
		return "NONE\n"
	}
	return s
}
