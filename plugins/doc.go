// Package plugins is the public SDK a scheduler-plugin author imports, and the home of every
// plugin Orbit ships: plugins/scheduler is the contract (State, Delta, Plan, Serve, the
// in-process Harness), plugins/sched/selection chooses nodes as the controller checks them,
// plugins/sched/{builtin,backfill} are SchedulerType's sched/builtin and sched/backfill, and
// plugins/cmd holds their executables. To write, build, install and test a plugin of your
// own, start from plugins/examples/sjf and its README.md. See DESIGN.md §6.
package plugins
