// Package backfill is sched/backfill as Slurm 22.05 does it (src/plugins/sched/backfill):
// the main scheduler's strict-priority pass runs at every call (builtin.Main, with
// default_queue_depth and sched_interval), and every bf_interval seconds an EASY-style
// backfill pass walks the pending jobs in priority order (at most bf_max_job_test, at most
// bf_max_job_user per user) over a map of when resources free up: running jobs end at
// StartTime+TimeLimit, jobs it reserves for hold their nodes from their expected start for
// their time limit. A job whose earliest start is now starts (Start.Backfilled) only if it
// fits beside every reservation made for higher-priority jobs; one that must wait gets a
// reservation (Plan.Reservations, squeue --start) when it starts within bf_window, and past
// it only its expected start, with nothing held. An array's pending record starts as many
// tasks in one pass as fit (and its %N allows), as Slurm goes on with an array's next task.
//
// The map of the future is a timeline (timeline.go): holds sorted by start and end for the
// whole pass over one pool, and a selection.Tally per job that says at which times the job
// may fit, so a pass costs about jobs tested × time slots touched (plus the nodes of the
// holds that change there), not jobs × running jobs × nodes. bf_max_job_test counts jobs
// that reach a node test, as Slurm's bf_last_depth_try: jobs past it are not tested.
//
// The queue is builtin.Queue's: partitions with a higher PriorityTier first, then priority.
//
// A pass (pass.go) yields after bf_yield_interval of wall-clock work, as Slurm releases its
// locks: the plan so far goes to the controller and the pass goes on at its next job in the
// next Schedule call, over the queue and map it began with (jobs submitted meanwhile wait for
// the next pass). If a job or node changed meanwhile the pass ends there unless bf_continue;
// a partition change or resync always ends it. bf_max_time (wall clock, yields included)
// ends a pass; the next one, bf_interval after, begins at the top of the queue again, as in
// Slurm. A pass that ends reports one sdiag cycle in Plan.Stats: the jobs it looked at
// (Depth), those it node-tested (DepthTry) and the records Slurm's map would have
// (TableSize, table.go).
//
// Differences from Slurm kept on purpose: reservations book CPUs and memory, not whole
// nodes (Slurm's node_space map is node bitmaps), so a reservation leaves the rest of a
// node usable; a yielded pass resumes at the controller's next cycle (a wake or its tick),
// not after bf_yield_sleep; bf_resolution is the shortest time a reservation holds, and
// expected start times are exact job end times (as Slurm's will-run test gives them) rather
// than rounded.
//
// Advance reservations are respected as the main pass respects them (builtin.Main): at each
// time it tries, a job may use only the nodes the reservations leave a run starting then
// (builtin.Resvs), and the times tried include every start and end of a reservation, so a
// job kept off reserved nodes is planned from the reservation's end and a job in a
// reservation not started yet from its start. A change of the reservations ends a yielded
// pass. With no reservation and a job naming none, a job costs what it did before.
//
// It imports plugins/scheduler, plugins/sched/{builtin,selection}, compat/states and the
// standard library only.
package backfill
