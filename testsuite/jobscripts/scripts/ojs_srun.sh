#!/bin/bash
#SBATCH -J ojs_srun
#SBATCH -n 2
#SBATCH -o srun.out
srun -l echo hello
srun -n 1 bash -c 'env | grep ^SLURM_ | cut -d= -f1 | sort'
