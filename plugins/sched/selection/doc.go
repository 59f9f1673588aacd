// Package selection chooses nodes for a job the way Slurm's select/cons_tres (and
// select/linear) plugin does, from a Pool of the free resources of each node. It is shared
// by every scheduler plugin Orbit ships (sched/builtin, sched/backfill, the examples), so
// that they agree with each other and with the controller's verification on what "fits"
// means.
//
// What is consumed follows SelectTypeParameters (see Mode): CR_CPU and CR_Core count CPUs,
// CR_Memory counts memory only (CPUs are shared between jobs, a job still gets at most a
// node's CPUs), and the _Memory variants count both. select/linear allocates whole nodes.
// On a node with several threads per core (Node.ThreadsPerCore) a job takes whole cores,
// and --hint, --threads-per-core and --ntasks-per-core say how many threads of each its
// tasks use; CR_CPU and CR_Core differ only in the CPUs the job is said to have there
// (cores.go).
//
// Partitions with OverSubscribe=YES:n or FORCE:n let up to n jobs hold a CPU: each has n
// rows, a sharing job holds its CPUs in one, and Select tries idle CPUs, then each row,
// fullest first, then an empty one, as select/cons_tres does (share.go).
//
// --gres is counted per node (gres.go): a node takes a job only with enough free units of
// each requested GRES (of the requested type, or any type), typed requests served first;
// the Pool books what an allocation takes (Alloc.Gres) beside its CPUs and memory.
//
// --constraint is evaluated by ParseConstraint: features joined by & (AND) and | (OR, with
// & binding tighter), and one bracketed matching-OR list [a|b|c] (every node of the job has
// the same one of them, tried in order). Feature counts (a*2), parentheses and
// node-changeable features are not supported and are reported as errors.
//
// It imports only plugins/scheduler and the standard library: a plugin author may link it.
package selection
