#!/bin/bash
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=4
#SBATCH --output=omp_%j.txt
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
echo "running with $OMP_NUM_THREADS threads on $SLURM_CPUS_ON_NODE cpus"
