package main

// Wide launches (issue 9). srun sends each node its LaunchTasks over a connection of its
// own, at most launchParallel at once: a step over 2,048 nodes then never holds thousands of
// connections and goroutines in srun for its launch, nor makes a slurmd emulating them all
// start thousands of slurmstepd processes in the same instant. (Slurm's srun sends one
// launch down the TreeWidth tree of slurmds; the bound plays that part here, where launches
// carry per-node environments.)
//
// Every task's I/O connection back to srun holds a descriptor for the step's life: Slurm's
// srun raises RLIMIT_NOFILE's soft limit to the hard one for them (rlimits_maximize_nofile).
// The Go runtime does exactly that at start (since Go 1.19), so srun needs no code of its
// own for it.
const launchParallel = 64
