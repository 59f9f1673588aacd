#!/bin/bash
#SBATCH -J ojs_mpi_pmi2
#SBATCH -n 3
#SBATCH -o mpi_pmi2.out
# An MPI job's launch as sites write it: srun --mpi=pmi2 gives each task PMI's variables
# and a PMI socket; --mpi=none none of them.
srun --mpi=pmi2 -l bash -c 'echo "type=$SLURM_MPI_TYPE rank=$PMI_RANK size=$PMI_SIZE fd=${PMI_FD:+set} jobid=${PMI_JOBID%%.*}"' | sort
srun --mpi=none -n1 bash -c 'echo "none: [$SLURM_MPI_TYPE] [$PMI_FD]"'
export SLURM_MPI_TYPE=pmi2
srun -n1 bash -c 'echo "from env: $SLURM_MPI_TYPE ${PMI_SIZE}"'
