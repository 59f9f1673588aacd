// Package schedhost runs slurmctld's scheduler plugin as a child process (go-plugin over gRPC)
// and presents it to the controller as a scheduler.Scheduler: it finds the executable
// SchedulerType names, starts it tied to the controller's life, bounds every call with a
// deadline, and replaces a plugin that crashed, hung or was killed.
//
// Life of a plugin (DESIGN.md §6, STYLE.md's go-plugin traps):
//   - SchedulerType=sched/NAME runs the executable sched_NAME, looked up in PluginDir (a
//     colon-separated list, as in Slurm), then beside the running slurmctld binary, then in
//     the directories the caller adds (tests). None there is a startup error naming the type
//     and every directory searched, as Slurm refuses a plugin it cannot load.
//   - The plugin is started from a goroutine locked to its OS thread for the child's whole
//     life with Pdeathsig=SIGKILL, so a slurmctld killed with -9 takes its plugin with it;
//     the plugin also exits when its parent changes (scheduler.Serve). Close kills it.
//   - A call that fails (the process died, the connection broke) or misses its deadline kills
//     the plugin. The next call starts a new one, after a backoff that doubles from
//     RestartMin to RestartMax while restarts keep failing, and answers ErrResync until the
//     controller has sent a full Sync, so the new plugin never plans from an empty mirror.
//     Meanwhile no plan is made and jobs wait; the controller's tables are untouched.
//
// It must not be imported by any command; it may import plugins/scheduler, conf and
// internal/*.
package schedhost
