#!/bin/bash
#SBATCH -J ojs_sweep
#SBATCH -a 0-6:2%2
#SBATCH -o sweep-%x.%a.log
# Parameter sweep: each task picks its own input value.
params=(0.1 0.2 0.3 0.4 0.5 0.6 0.7)
echo "param=${params[$SLURM_ARRAY_TASK_ID]} task=$SLURM_ARRAY_TASK_ID count=$SLURM_ARRAY_TASK_COUNT"
