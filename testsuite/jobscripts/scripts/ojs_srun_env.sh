#!/bin/bash
#SBATCH -J ojs_srun_env
#SBATCH -n 2
#SBATCH -o srun_env.out
# The variables a task of a step sees, against the batch script's own.
env | grep ^SLURM_ | cut -d= -f1 | sort > batch_names.txt
srun -n 1 bash -c 'env | grep ^SLURM_ | cut -d= -f1 | sort' > step_names.txt
echo "only in the step:"
comm -13 batch_names.txt step_names.txt
echo "only in the batch script:"
comm -23 batch_names.txt step_names.txt
