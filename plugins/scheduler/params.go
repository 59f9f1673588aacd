package scheduler

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Params is SchedulerParameters as the main and backfill schedulers read it, with Slurm
// 22.05's defaults. Times are seconds unless named otherwise.
type Params struct {
	// Main scheduler.
	DefaultQueueDepth int  // default_queue_depth: jobs tested per event-driven pass (100)
	SchedInterval     int  // sched_interval: full-queue pass period (60); -1 disables the main scheduler
	SchedMinInterval  int  // sched_min_interval: microseconds between passes (2)
	Defer             bool // defer: do not schedule each job at submit
	// Backfill.
	BfInterval       int  // bf_interval (30); -1 disables the backfill loop
	BfWindow         int  // bf_window, minutes (1440)
	BfResolution     int  // bf_resolution (60)
	BfMaxJobTest     int  // bf_max_job_test (500)
	BfMaxJobStart    int  // bf_max_job_start, 0 = no limit
	BfMaxJobUser     int  // bf_max_job_user, 0 = no limit
	BfMaxJobPart     int  // bf_max_job_part, 0 = no limit
	BfMinAgeReserve  int  // bf_min_age_reserve (0)
	BfMinPrioReserve int  // bf_min_prio_reserve (0)
	BfContinue       bool // bf_continue
	BfMaxTime        int  // bf_max_time: wall seconds a pass may take, yields included (bf_interval)
	BfYieldInterval  int  // bf_yield_interval: microseconds of work between yields (2000000)
	// Unknown lists options Slurm does not know; slurmctld ignores them (it matches each
	// option it knows by searching the string), so Orbit ignores them too.
	Unknown []string
}

// DefaultParams is Params for an empty SchedulerParameters.
func DefaultParams() Params {
	return Params{
		DefaultQueueDepth: 100, SchedInterval: 60, SchedMinInterval: 2,
		BfInterval: 30, BfWindow: 1440, BfResolution: 60, BfMaxJobTest: 500,
		BfMaxTime: 30, BfYieldInterval: 2000000,
	}
}

// paramRange is a numeric option's field and the values slurmctld accepts.
type paramRange struct {
	field    func(*Params) *int
	min, max int
	neg1     bool // -1 is also accepted (disables)
}

var numParams = map[string]paramRange{
	"default_queue_depth": {func(p *Params) *int { return &p.DefaultQueueDepth }, 0, 1 << 31, false},
	"sched_interval":      {func(p *Params) *int { return &p.SchedInterval }, 0, 1 << 31, true},
	"sched_min_interval":  {func(p *Params) *int { return &p.SchedMinInterval }, 0, 1 << 31, false},
	"bf_interval":         {func(p *Params) *int { return &p.BfInterval }, 1, 10800, true},
	"bf_window":           {func(p *Params) *int { return &p.BfWindow }, 1, 43200, false},
	"bf_resolution":       {func(p *Params) *int { return &p.BfResolution }, 1, 3600, false},
	"bf_max_job_test":     {func(p *Params) *int { return &p.BfMaxJobTest }, 1, 1000000, false},
	"bf_max_job_start":    {func(p *Params) *int { return &p.BfMaxJobStart }, 0, 10000, false},
	"bf_max_job_user":     {func(p *Params) *int { return &p.BfMaxJobUser }, 0, 1 << 31, false},
	"bf_max_job_part":     {func(p *Params) *int { return &p.BfMaxJobPart }, 0, 1 << 31, false},
	"bf_min_age_reserve":  {func(p *Params) *int { return &p.BfMinAgeReserve }, 0, 2592000, false},
	"bf_min_prio_reserve": {func(p *Params) *int { return &p.BfMinPrioReserve }, 0, 1<<31 - 1, false},
	"bf_max_time":         {func(p *Params) *int { return &p.BfMaxTime }, 1, 3600, false},
	"bf_yield_interval":   {func(p *Params) *int { return &p.BfYieldInterval }, 1, 10000000, false},
}

// knownFlags are options Slurm knows that take no value or whose value Orbit does not use.
var knownFlags = map[string]bool{
	"bf_continue": true, "defer": true, "bf_busy_nodes": true, "bf_hetjob_immediate": true,
	"bf_ignore_newly_avail_nodes": true, "bf_one_resv_per_job": true, "bf_running_job_reserve": true,
	"bf_licenses": true, "pack_serial_at_end": true, "preempt_reorder_count": true,
	"preempt_strict_order": true, "preempt_youngest_first": true, "salloc_wait_nodes": true,
	"sbatch_wait_nodes": true, "nohold_on_prolog_fail": true, "kill_invalid_depend": true,
	"reduce_completing_frag": true, "requeue_setup_env_fail": true, "permit_job_expansion": true,
	"bf_yield_sleep": true, "bf_window_linear": true,
	"bf_job_part_count_reserve": true, "bf_max_job_array_resv": true, "bf_max_job_assoc": true,
	"bf_max_job_user_part": true, "bf_node_space_size": true, "bf_hetjob_prio": true,
	"max_rpc_cnt": true, "max_sched_time": true, "max_script_size": true, "max_switch_wait": true,
	"partition_job_depth": true, "sched_max_job_start": true, "max_array_tasks": true,
	"max_depend_depth": true, "default_gbytes": true, "delay_boot": true, "disable_job_shrink": true,
	"disable_hetjob_steps": true, "enable_hetjob_steps": true, "enable_user_top": true,
	"ignore_numa": true, "inventory_interval": true, "spec_cores_first": true,
	"step_retry_count": true, "step_retry_time": true, "whole_hetjob": true, "allow_zero_lic": true,
	"assoc_limit_stop": true, "batch_sched_delay": true, "build_queue_timeout": true,
	"preempt_send_user_signal": true, "no_backup_scheduling": true, "no_env_cache": true,
	"max_submit_line_size": true, "time_min_as_soft_limit": true,
}

// ParseParams parses SchedulerParameters. A value out of range or not a number is an error
// naming the option; the Params returned then hold Slurm's default for that option, which is
// what slurmctld falls back to after logging it. Unknown options go to Params.Unknown.
func ParseParams(s string) (Params, error) {
	p := DefaultParams()
	p.BfMaxTime = 0 // bf_interval's value unless given (below)
	var errs []error
	for _, opt := range strings.Split(s, ",") {
		opt = strings.TrimSpace(opt)
		if opt == "" {
			continue
		}
		key, val, hasVal := strings.Cut(opt, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if r, ok := numParams[key]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(val))
			switch {
			case !hasVal || err != nil:
				errs = append(errs, fmt.Errorf("invalid SchedulerParameters %s: %q is not a number", key, val))
			case (n < r.min || n > r.max) && !(r.neg1 && n == -1):
				errs = append(errs, fmt.Errorf("invalid SchedulerParameters %s: %d (must be %d to %d)", key, n, r.min, r.max))
			default:
				*r.field(&p) = n
			}
			continue
		}
		switch key {
		case "bf_continue":
			p.BfContinue = true
		case "defer":
			p.Defer = true
		default:
			if !knownFlags[key] {
				p.Unknown = append(p.Unknown, opt)
			}
		}
	}
	if p.BfMaxTime == 0 {
		p.BfMaxTime = p.BfInterval // Slurm's default, also after an invalid value
	}
	if p.BfMaxJobUser > p.BfMaxJobTest {
		// slurmctld only warns: the user limit can never be reached.
		p.BfMaxJobUser = 0
	}
	return p, errors.Join(errs...)
}
