#!/bin/bash
# An ARCHER2-style MPI job: one task per physical core, block distribution.
#SBATCH --job-name=ojs_site_hint
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --cpus-per-task=1
#SBATCH --hint=nomultithread
#SBATCH --distribution=block:block
#SBATCH --output=site_hint_%j.log

export OMP_NUM_THREADS=1
echo "hint=$SLURM_HINT tpc=$SLURM_THREADS_PER_CORE dist=$SLURM_DISTRIBUTION ntasks=$SLURM_NTASKS"
env | grep ^SLURM_ | cut -d= -f1 | sort
srun bash -c 'echo "task $SLURM_PROCID hint=$SLURM_HINT tpc=$SLURM_THREADS_PER_CORE"' | sort
