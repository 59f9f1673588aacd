// Package pmi serves the Process Management Interface to one node's tasks of a step, as
// Slurm's mpi/pmi2 plugin does in slurmstepd (srun --mpi=pmi2, MpiDefault=pmi2): each task
// gets one end of a socket pair, named by PMI_FD beside PMI_RANK, PMI_SIZE and PMI_JOBID,
// and speaks either wire protocol on it: PMI-1 (space-separated key=value lines, MPICH's
// simple PMI) or PMI-2 (length-prefixed, semicolon-separated commands), chosen by the
// version its first "cmd=init" line asks for. The key-value space is the step's: what tasks
// put becomes visible to every task of the step once all of them have been through a fence
// (PMI-1 barrier_in, PMI-2 kvs-fence). A fence completes locally when every task of the node
// has entered it; the node's puts then travel to the other nodes through Step.Fence (srun,
// over the step's I/O connections, as Slurm's tree ends at srun), and every task gets the
// merged space.
//
// Process spawning (PMI spawn), name publishing and PMI-2 job connect are answered with
// failure, as they are not offered; PMI_process_mapping (the tasks' placement, as Slurm
// computes it) and universeSize are the job attributes served.
//
// It imports only the standard library and must not import any Orbit package: slurmstepd
// links it and supplies the fence.
package pmi
